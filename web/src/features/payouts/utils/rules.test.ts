import { describe, expect, it } from 'vitest';
import { earnsNothing, lineStateLabel, onboardingReturn, payoutRule } from './rules';

const none = { payableAt: null, transferredAt: null, reversedAt: null };

describe('payoutRule', () => {
  it('names the refund window the server is configured with', () => {
    expect(payoutRule(7)).toBe(
      'Your 75% of each approved contact fee becomes payable 7 days after the requester is charged (the refund window) and is then sent to your payout account.',
    );
    expect(payoutRule(1)).toContain('payable 1 day after');
    expect(payoutRule(0)).toContain('payable 0 days after');
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
