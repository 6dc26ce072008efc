import { describe, expect, it } from 'vitest';
import { earnsNothing, lineStateLabel, onboardingReturn, payoutRule, reasonText } from './rules';

const none = { payableAt: null, transferredAt: null, reversedAt: null };

describe('payoutRule', () => {
  it('names the refund window the server is configured with', () => {
    expect(payoutRule(7)).toBe(
      'Your 75% of each approved contact fee becomes payable 7 days after the requester is charged (the refund window) and is then sent to your payout account.',
    );
    expect(payoutRule(1)).toContain('payable 1 day after');
    expect(payoutRule(0)).toContain('payable 0 days after');
  });

  it('says the share is paid for a conversation when the server names its reply window', () => {
    expect(payoutRule(7, 7)).toContain(
      'It counts only once you have written to them in the chat: if you send nothing within 7 days of approving, the requester is refunded in full and you earn nothing.',
    );
    expect(payoutRule(7, 1)).toContain('within 1 day of approving');
  });
});

describe('reasonText', () => {
  it('says why a share was taken back, as the mail does', () => {
    expect(reasonText('no_reply', 7)).toBe('Refunded to the requester: you did not write to them within 7 days of approving.');
    expect(reasonText('refund', 7)).toBe('The requester was refunded.');
    expect(reasonText('dispute', 7)).toBe('The requester disputed the charge with their bank.');
    expect(reasonText(null, 7)).toBeNull();
  });
});

describe('lineStateLabel', () => {
  it('says a payable line is sent at the next run only when the account is enabled', () => {
    const line = { ...none, state: 'payable' as const };
    expect(lineStateLabel(line, { status: 'enabled', connectedAt: null })).toBe('Payable — sent at the next payout run');
    expect(lineStateLabel(line, { status: 'onboarding', connectedAt: null })).toBe('Connect a payout account to receive it');
    expect(lineStateLabel(line, null)).toBe('Connect a payout account to receive it');
  });

  it('leaves out a date the server did not give', () => {
    expect(lineStateLabel({ ...none, state: 'captured' }, null)).toBe('In the refund window');
    expect(lineStateLabel({ ...none, state: 'transferred' }, null)).toBe('Paid');
    expect(lineStateLabel({ ...none, state: 'reversed' }, null)).toBe('Reversed');
  });

  it('asks for a reply before a captured share counts, and says when one was refunded for want of it', () => {
    expect(lineStateLabel({ ...none, state: 'captured', payableAt: '2026-12-15T10:00:00Z', replyBy: '2026-12-15T10:00:00Z' }, null)).toMatch(/^Reply by .+ to earn it$/);
    expect(lineStateLabel({ ...none, state: 'captured', reason: 'no_reply' }, null)).toBe('Being refunded — no reply in time');
    expect(lineStateLabel({ ...none, state: 'canceled', reason: 'no_reply' }, null)).toBe('Refunded — no reply in time');
    expect(lineStateLabel({ ...none, state: 'canceled', reason: 'dispute' }, null)).toBe('Disputed before payout');
    expect(lineStateLabel({ ...none, state: 'canceled', reason: 'refund' }, null)).toBe('Refunded before payout');
  });
});

describe('earnsNothing', () => {
  it('is true for refunded, released and reversed lines only', () => {
    expect(['held', 'captured', 'payable', 'transferred', 'canceled', 'released', 'reversed'].filter((state) => earnsNothing(state as never))).toEqual([
      'canceled',
      'released',
      'reversed',
    ]);
  });
});

describe('onboardingReturn', () => {
  it('reads ?onboarding=return and ?onboarding=refresh, and nothing else', () => {
    expect(onboardingReturn(new URLSearchParams('onboarding=return'))).toBe('return');
    expect(onboardingReturn(new URLSearchParams('onboarding=refresh'))).toBe('refresh');
    expect(onboardingReturn(new URLSearchParams('onboarding=other'))).toBeNull();
    expect(onboardingReturn(new URLSearchParams(''))).toBeNull();
  });
});
