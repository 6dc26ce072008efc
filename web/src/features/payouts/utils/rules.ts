/**
 * The earnings page's words: what each line's state means to the person who
 * is paid, and the payout rule. Pure, so they are tested alone.
 */
import { formatDate } from '@/resources/billing/billing';
import type { EarningsLine, EarningsLineState, PayoutAccount } from '@/resources/payouts/payouts';

export const messages = {
  loadFailed: 'Failed to load your earnings',
  noEarnings: 'No earnings yet. When someone pays to contact you and you approve, your share shows here.',
  notConnected: 'Connect a payout account to receive what you earn. The setup happens on our payment provider’s secure page.',
  cannotConnectYet: 'A payout account opens with your first earnings: once someone pays to contact you, you can connect one here.',
  onboarding: 'Your payout account setup is not finished yet.',
  connected: 'Payout account connected',
  setUp: 'Payout account set up',
  confirming: 'We’re confirming your payout account…',
  stillConfirming: 'We’re still confirming your payout account. This can take a few minutes: come back to this page later.',
  linkExpired: 'Your setup link expired. Continue setup to pick up where you left off.',
} as const;

function daysText(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/**
 * The rule above the totals: paid for a conversation, not a click. The reply
 * rule is said when the server names its window.
 */
export function payoutRule(payoutWindowDays: number, replyWindowDays?: number): string {
  const payable = `Your 75% of each approved contact fee becomes payable ${daysText(payoutWindowDays)} after the requester is charged (the refund window) and is then sent to your payout account.`;
  if (replyWindowDays === undefined) return payable;
  return `${payable} It counts only once you have written to them in the chat: if you send nothing within ${daysText(replyWindowDays)} of approving, the requester is refunded in full and you earn nothing.`;
}

/** Why a share was taken back, in the payee's words (the same reason the mail gives). */
export function reasonText(reason: EarningsLine['reason'], replyWindowDays: number): string | null {
  switch (reason) {
    case 'no_reply':
      return `Refunded to the requester: you did not write to them within ${daysText(replyWindowDays)} of approving.`;
    case 'refund':
      return 'The requester was refunded.';
    case 'dispute':
      return 'The requester disputed the charge with their bank.';
    default:
      return null;
  }
}

/** Whether money that is payable now can be sent: only to an enabled payout account. */
export function canReceive(account: PayoutAccount | null): boolean {
  return account?.status === 'enabled';
}

type LineFacts = Pick<EarningsLine, 'state' | 'payableAt' | 'transferredAt' | 'reversedAt'> & Partial<Pick<EarningsLine, 'reason' | 'replyBy'>>;

/** What a line's state badge says. */
export function lineStateLabel(line: LineFacts, account: PayoutAccount | null): string {
  switch (line.state) {
    case 'held':
      return 'Waiting for your answer';
    case 'captured':
      if (line.reason === 'no_reply') return 'Being refunded — no reply in time';
      if (line.replyBy) return `Reply by ${formatDate(line.replyBy)} to earn it`;
      return line.payableAt ? `Payable on ${formatDate(line.payableAt)}` : 'In the refund window';
    case 'payable':
      return canReceive(account) ? 'Payable — sent at the next payout run' : 'Connect a payout account to receive it';
    case 'transferred':
      return line.transferredAt ? `Paid ${formatDate(line.transferredAt)}` : 'Paid';
    case 'canceled':
      if (line.reason === 'no_reply') return 'Refunded — no reply in time';
      if (line.reason === 'dispute') return 'Disputed before payout';
      return 'Refunded before payout';
    case 'released':
      return 'Hold released — nothing charged';
    case 'reversed':
      return line.reversedAt ? `Reversed ${formatDate(line.reversedAt)}` : 'Reversed';
  }
}

/** The badge's colours: waiting amber, payable blue, paid green, nothing earned grey. */
export const STATE_TONE: Record<EarningsLineState, string> = {
  held: 'border-amber-300 bg-amber-50 text-amber-900',
  captured: 'border-amber-300 bg-amber-50 text-amber-900',
  payable: 'border-sky-300 bg-sky-50 text-sky-900',
  transferred: 'border-emerald-300 bg-emerald-50 text-emerald-800',
  canceled: 'border-border bg-muted text-muted-foreground',
  released: 'border-border bg-muted text-muted-foreground',
  reversed: 'border-red-300 bg-red-50 text-red-800',
};

/** Lines that earn nothing (any more): their share is shown struck through. */
export function earnsNothing(state: EarningsLineState): boolean {
  return state === 'canceled' || state === 'released' || state === 'reversed';
}

/** What `?onboarding=` says on the way back from the provider's onboarding. */
export function onboardingReturn(search: URLSearchParams): 'return' | 'refresh' | null {
  const value = search.get('onboarding');
  return value === 'return' || value === 'refresh' ? value : null;
}
