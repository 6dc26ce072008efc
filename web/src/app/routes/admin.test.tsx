import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { apiError, callsTo, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const ACCESS = '/api/v1/admin/access';
const adminOnly = () => apiError(403, 'admin_only', 'Access denied: Admin only');

/** Every route of the app under /admin (a new one is covered as soon as it is in config/paths.ts). */
const adminPages = Object.values(paths).filter((page) => page.path.startsWith('/admin'));

describe('the admin pages', () => {
  it('cover the three admin routes of the spec, leaderboard moderation, opportunity applications and the audit log', () => {
    expect(adminPages.map((page) => page.path).sort()).toEqual([
      '/admin/audit',
      '/admin/leaderboard',
      '/admin/opportunities',
      '/admin/partners',
      '/admin/payments',
      '/admin/payouts',
      '/admin/reports',
      '/admin/verification',
    ]);
  });

  it.each(adminPages)('$path sends a non-admin home with the page’s message, as the server answers', async (page) => {
    const fetchMock = stubApi({ [`GET ${ACCESS}`]: adminOnly });
    const { router } = renderApp(page.path, { user: 'signed-in' });
    const message = page.path === '/admin/verification' ? 'Admin access required' : 'Access denied: Admin only';
    expect(await screen.findByText(message, {}, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { level: 1, name: page.title })).toBeNull();
    expect(callsTo(fetchMock, 'GET', ACCESS)).toHaveLength(1);
  });

  it.each(adminPages)('$path shows itself to an admin (the server answers 204)', async (page) => {
    stubApi({ [`GET ${ACCESS}`]: () => new Response(null, { status: 204 }) });
    const { router } = renderApp(page.path, { user: 'signed-in' });
    expect(await screen.findByRole('heading', { level: 1, name: page.title }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(page.path);
  });

  it('shows nothing of the page until the server has answered', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi({ [`GET ${ACCESS}`]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderApp('/admin/payouts', { user: 'signed-in' });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', ACCESS)).toHaveLength(1), { timeout: 5000 });
    expect(screen.getByRole('status')).toHaveTextContent('Loading page…');
    expect(screen.queryByRole('heading', { level: 1, name: 'Payouts Management' })).toBeNull();
    await act(async () => answer(new Response(null, { status: 204 })));
    expect(await screen.findByRole('heading', { level: 1, name: 'Payouts Management' })).toBeInTheDocument();
  });

  it('sends a signed-out visitor to sign in without asking, with the way back', async () => {
    const fetchMock = stubApi({ [`GET ${ACCESS}`]: adminOnly });
    const { router } = renderApp('/admin/partners');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 5000 });
    expect(router.state.location.search).toBe('?returnTo=%2Fadmin%2Fpartners');
    expect(callsTo(fetchMock, 'GET', ACCESS)).toHaveLength(0);
  });

  it('sends a user whose session the server refuses (401) to sign in again', async () => {
    stubApi({ [`GET ${ACCESS}`]: () => apiError(401, 'no_authorization', 'This endpoint requires a Bearer token') });
    const { router } = renderApp('/admin/payouts', { user: 'signed-in' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 5000 });
    expect(router.state.location.search).toBe('?returnTo=%2Fadmin%2Fpayouts');
  });

  it('lets nobody in when the server gives no answer, and says so', async () => {
    stubApi({ [`GET ${ACCESS}`]: () => apiError(500, 'internal', 'Internal error') });
    const { router } = renderApp('/admin/partners', { user: 'signed-in' });
    expect(
      await screen.findByText('We could not check your access. Please try again.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { level: 1, name: 'Partner Management' })).toBeNull();
  });

  it('asks again on every visit: a role taken away is not remembered', async () => {
    const answers = [new Response(null, { status: 204 }), adminOnly()];
    const fetchMock = stubApi({ [`GET ${ACCESS}`]: () => answers.shift()! });
    const { router } = renderApp('/admin/partners', { user: 'signed-in' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Partner Management' }, { timeout: 5000 })).toBeInTheDocument();
    await act(() => router.navigate('/how-it-works'));
    await screen.findByRole('heading', { level: 1, name: 'How PrettyScore works' }, { timeout: 5000 });
    await act(() => router.navigate('/admin/partners'));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', ACCESS)).toHaveLength(2), { timeout: 5000 });
    expect(await screen.findByText('Access denied: Admin only')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callsTo(fetchMock, 'GET', ACCESS)).toHaveLength(2);
  }, 20_000);
});

