import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const entry = (n: number) => ({
  id: `a${n}`,
  action: 'verification_request_approved',
  adminId: 'u1',
  adminEmail: 'admin@example.com',
  ipAddress: '127.0.0.1',
  details: { request_id: `r${n}`, before: 'pending', after: 'approved' },
  createdAt: '2026-11-24T10:00:00Z',
});

describe('/admin/audit', () => {
  it('lists decisions with who, what, before and after, and loads older ones', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/audit': (request) =>
        new URL(request.url).searchParams.get('before') === 'a1'
          ? json({ entries: [entry(2)], nextBefore: null })
          : json({ entries: [entry(1)], nextBefore: 'a1' }),
    });
    const { user } = renderApp('/admin/audit', { user: 'signed-in' });
    const first = await screen.findByTestId('audit-entry', {}, { timeout: 5000 });
    expect(within(first).getByText('Verification request approved')).toBeInTheDocument();
    expect(first).toHaveTextContent('by admin@example.com from 127.0.0.1');
    expect(first).toHaveTextContent('request id: r1');
    expect(first).toHaveTextContent('pending → approved');
    await user.click(screen.getByRole('button', { name: 'Load Older' }));
    expect(await screen.findAllByTestId('audit-entry')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load Older' })).toBeNull();
    expect(callsTo(fetchMock, 'GET', '/api/v1/admin/audit')).toHaveLength(2);
  });
});
