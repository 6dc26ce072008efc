import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { timeLeft } from '@/features/reports/components/report-queue';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

function queued(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    target_kind: 'photo',
    target_id: 'p1',
    reported_as: 'share',
    label: 'a shared photo',
    excerpt: 'Ava (8.8/10)',
    image_url: null,
    affected_user_id: 'u1',
    affected_email: 'ava@example.com',
    reason: 'spam_or_scam',
    reason_label: 'Spam or scam',
    urgent: false,
    rule: 'g6',
    details: 'Selling followers',
    reporter_email: 'visitor@example.com',
    signed_out: true,
    created_at: '2026-12-07T10:00:00Z',
    due_at: '2026-12-09T10:00:00Z',
    seconds_left: 47 * 3600 + 5 * 60,
    open_reports_of_target: 1,
    ...extra,
  };
}

const decision = {
  id: 'd1',
  action: 'remove',
  summary: 'We removed a shared photo.',
  target_kind: 'photo',
  target_label: 'a shared photo',
  reason: 'my_photo_without_consent',
  rule: 'g3',
  rule_title: 'Post only photos of yourself',
  rule_link: '/guidelines#g3',
  statement: 'Not their photo',
  suspend_days: null,
  created_at: '2026-12-07T10:00:00Z',
  appealable: false,
  appeal_status: 'open',
  appeal_answer: null,
};

describe('/admin/reports', () => {
  it('says the time left of the 48 hours, or how overdue', () => {
    expect(timeLeft(47 * 3600 + 5 * 60)).toBe('47 h 5 min left');
    expect(timeLeft(-(2 * 3600 + 60))).toBe('Overdue by 2 h 1 min');
  });

  it('shows urgent reports first as the server orders them, and decides one with a rule and reasons', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/reports': () =>
        json({
          reports: [queued('r1', { urgent: true, reason: 'under_18', reason_label: 'Someone under 18', rule: 'g1', seconds_left: -120 }), queued('r2')],
          appeals: [{ id: 'a1', decision, statement: 'It is me', created_at: '2026-12-07T11:00:00Z', may_decide: false }],
          admins: 1,
        }),
      'POST /api/v1/admin/reports/r2/decision': () => json({ ...decision, appeal_status: null, appealable: true }, 201),
    });
    const { user } = renderApp('/admin/reports', { user: 'signed-in' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' }, { timeout: 5000 })).toBeInTheDocument();
    const [urgent, spam] = await screen.findAllByLabelText(/^Report: /);
    expect(urgent).toHaveTextContent('Urgent');
    expect(urgent).toHaveTextContent('Overdue by 0 h 2 min');
    expect(spam).toHaveTextContent('47 h 5 min left');
    expect(spam).toHaveTextContent('visitor@example.com (signed out, good-faith statement given)');
    const card = within(spam!);
    expect(card.getByRole('button', { name: 'Decide' })).toBeDisabled();
    await user.click(card.getByRole('radio', { name: 'Remove the content' }));
    await user.type(card.getByLabelText(/Statement of reasons/), 'Spam, rule 6.');
    await user.click(card.getByRole('button', { name: 'Decide' }));
    expect(await screen.findByText(/Decided\. The reporter and the affected user/)).toBeInTheDocument();
    const [sent] = callsTo(fetchMock, 'POST', '/api/v1/admin/reports/r2/decision');
    expect(await sent!.json()).toEqual({ action: 'remove', rule: 'g6', statement: 'Spam, rule 6.' });
    // The appeal of this admin's own decision waits for another admin.
    const appeal = screen.getByLabelText(/^Appeal of: /);
    expect(appeal).toHaveTextContent('another admin must answer the appeal');
    expect(appeal).toHaveTextContent('There is only one admin');
  });
});
