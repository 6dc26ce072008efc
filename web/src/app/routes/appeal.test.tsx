import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const ID = '00000000-0000-4000-8000-0000000000d1';

const decision = {
  id: ID,
  action: 'suspend',
  summary: 'We suspended the account behind a user account for 7 days.',
  target_kind: 'user',
  target_label: 'a user account',
  reason: 'harassment',
  rule: 'g5',
  rule_title: 'No harassment, threats or hate',
  rule_link: '/guidelines#g5',
  statement: 'Repeated insults in chats.',
  suspend_days: 7,
  created_at: '2026-12-07T10:00:00Z',
  appealable: true,
  appeal_status: null,
  appeal_answer: null,
};

describe('/appeal/{decisionId}', () => {
  it('shows the decision from the mail’s link, signed out, and sends the one appeal with the token', async () => {
    const fetchMock = stubApi({
      [`GET /api/v1/moderation-decisions/${ID}`]: () => json(decision),
      [`POST /api/v1/moderation-decisions/${ID}/appeal`]: () =>
        json({ id: 'a1', message: 'Thank you. Another admin will look at your appeal and answer you by mail.' }, 201),
    });
    const { user } = renderApp(`/appeal/${ID}?token=secret-token`);
    expect(await screen.findByRole('heading', { level: 2, name: decision.summary }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'No harassment, threats or hate' })).toHaveAttribute('href', '/guidelines#g5');
    const [read] = callsTo(fetchMock, 'GET', `/api/v1/moderation-decisions/${ID}`);
    expect(new URL(read!.url).searchParams.get('token')).toBe('secret-token');
    await user.type(screen.getByLabelText(/Why is this decision wrong/), 'I was quoting them.');
    await user.click(screen.getByRole('button', { name: 'Send appeal' }));
    expect(await screen.findByText(/Another admin will look at your appeal/)).toBeInTheDocument();
    const [sent] = callsTo(fetchMock, 'POST', `/api/v1/moderation-decisions/${ID}/appeal`);
    expect(await sent!.json()).toEqual({ statement: 'I was quoting them.', token: 'secret-token' });
  });

  it('asks a signed-out visitor without a link to use the mail or sign in, and asks the server nothing', async () => {
    const fetchMock = stubApi({});
    renderApp(`/appeal/${ID}`);
    expect(await screen.findByText(/open the link in the mail we sent you/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', `/api/v1/moderation-decisions/${ID}`)).toHaveLength(0);
  });
});
