/**
 * The contact feature's small rules: the message, the spec's words, the
 * checkout's return, and what each request's state means to each party.
 * Pure, so they are tested alone.
 */
import { z } from '@/lib/zod';
import type { ContactRequest } from '@/resources/contact-requests/contact-requests';

export const CONTACT_MESSAGE_MIN = 10;
export const CONTACT_MESSAGE_MAX = 1000;
/** A report's reason: 1-500 characters once trimmed (the server's limit). */
export const REPORT_REASON_MAX = 500;

export const messages = {
  tooShort: 'Message must be at least 10 characters',
  tooLong: 'Message must be less than 1000 characters',
  processFailed: 'Failed to process request. Please try again.',
  noCheckoutUrl: 'No checkout URL returned',
  sent: 'Request sent! The contestant has 7 days to answer.',
  canceled: 'Checkout canceled. Your request was not sent and your card was not charged.',
  holdNotice:
    "Your card is only held, not charged, until the contestant answers. If they deny or don't answer within 7 days, the hold is released.",
  loadFailed: 'Failed to load contact requests',
  approveFailed: 'Failed to approve request',
  denyFailed: 'Failed to deny request',
  blockFailed: 'Failed to block requester',
  approved: 'Request approved! You can now chat.',
  denied: 'Request denied. Their card hold was released.',
  blocked: 'Requester blocked',
  reported: 'Requester reported and blocked',
  reportFailed: 'Failed to report requester',
  reportReasonMissing: 'Please say why you are reporting this requester',
  reportReasonTooLong: 'The reason must be at most 500 characters',
  payouts: 'Your share becomes payable once you have written to them in the chat and the refund window has passed, and is then sent to your payout account.',
} as const;

function daysText(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** Said in the contact dialog before paying: the fee buys a conversation, not a click. */
export function conversationRule(replyWindowDays: number): string {
  return `You pay for a conversation: if the contestant approves but sends you nothing within ${daysText(replyWindowDays)}, you are refunded in full, automatically.`;
}

/** Said on each request card the contestant receives. */
export function contestantRule(replyWindowDays: number): string {
  return `You are paid for a conversation, not a click: after you approve, your 75% becomes payable once you have written to them in the chat and the refund window has passed. If you send nothing within ${daysText(replyWindowDays)} of approving, they are refunded in full.`;
}

/** The reply window until the server's settings arrive (the server's default). */
export const DEFAULT_REPLY_WINDOW_DAYS = 7;

/** The dialog's message: 10-1000 characters once trimmed (the server trims too). */
export const contactMessageSchema = z.object({
  message: z.string().trim().min(CONTACT_MESSAGE_MIN, messages.tooShort).max(CONTACT_MESSAGE_MAX, messages.tooLong),
});

/** The report dialog's reason: 1-500 characters once trimmed (the server trims too). */
export const reportReasonSchema = z.object({
  reason: z.string().trim().min(1, messages.reportReasonMissing).max(REPORT_REASON_MAX, messages.reportReasonTooLong),
});

/** The counter under the message: '12/1000'. */
export function characterCount(value: string, max = CONTACT_MESSAGE_MAX): string {
  return `${value.length}/${max}`;
}

/** What the checkout's return to /leaderboard says (`?contact=success` or `?contact=canceled`). */
export function checkoutReturn(search: URLSearchParams): 'success' | 'canceled' | null {
  const value = search.get('contact');
  if (value === 'success') return 'success';
  if (value === 'canceled' || value === 'cancelled') return 'canceled';
  return null;
}

/** Server codes whose message is meant for the user as it is; anything else gets the spec's words. */
const SHOWN_CODES = new Set([
  'validation_failed',
  'cannot_contact_self',
  'not_found',
  'request_open',
  'blocked',
  'rate_limited',
  'checkout_in_progress',
  'already_paid',
]);

export function contactErrorMessage(error: unknown): string {
  if (error instanceof Error && error.message === messages.noCheckoutUrl) return messages.noCheckoutUrl;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && SHOWN_CODES.has(code) && error instanceof Error && error.message) return error.message;
  return messages.processFailed;
}

/**
 * What a failed report says: the server's own words for a repeated report
 * (409) or a reason it refused (422), the spec's words for anything else.
 */
export function reportErrorMessage(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  if ((status === 409 || status === 422) && error instanceof Error && error.message) return error.message;
  return messages.reportFailed;
}

/** The inbox's two lists: paid requests waiting for an answer, and approved ones. */
export function splitReceived(requests: ContactRequest[]): { pending: ContactRequest[]; approved: ContactRequest[] } {
  return {
    pending: requests.filter((request) => request.status === 'pending' && request.paid),
    approved: requests.filter((request) => request.status === 'approved'),
  };
}

export type SentState = { label: string; tone: 'waiting' | 'good' | 'bad' | 'neutral'; detail: string };

/** What became of a request the user sent, in their words. */
export function sentState(request: Pick<ContactRequest, 'status' | 'paid' | 'paymentStatus' | 'closed'>): SentState {
  if (request.status === 'approved') {
    if (request.paymentStatus === 'refunded') {
      return { label: 'Refunded', tone: 'neutral', detail: 'Your fee was refunded to your card in full. We mailed you why.' };
    }
    return request.closed
      ? { label: 'Closed', tone: 'neutral', detail: 'This conversation is closed.' }
      : { label: 'Approved', tone: 'good', detail: 'They said yes: the fee was charged and your chat is open.' };
  }
  if (request.status === 'denied') {
    return {
      label: 'Denied',
      tone: 'bad',
      detail: 'Denied or not answered within 7 days. The hold on your card was released: you were not charged.',
    };
  }
  if (request.paymentStatus === 'failed') {
    return { label: 'Payment failed', tone: 'bad', detail: 'The payment did not go through, so the request was not sent.' };
  }
  if (!request.paid) {
    return {
      label: 'Awaiting payment',
      tone: 'neutral',
      detail: 'Not sent yet: the payment was not completed. Use Contact on the leaderboard again to finish.',
    };
  }
  return { label: 'Waiting for an answer', tone: 'waiting', detail: 'Your card is only held, not charged, until they answer.' };
}
