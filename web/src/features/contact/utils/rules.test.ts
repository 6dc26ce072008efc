import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import type { ContactRequest } from '@/resources/contact-requests/contact-requests';
import {
  characterCount,
  checkoutReturn,
  contactErrorMessage,
  contactMessageSchema,
  messages,
  reportErrorMessage,
  reportReasonSchema,
  sentState,
  splitReceived,
} from './rules';

function request(extra: Partial<ContactRequest> = {}): ContactRequest {
  return {
    id: 'r1',
    photoId: 'p1',
    contestantName: 'Eileen',
    requesterName: 'Sam',
    role: 'contestant',
    rankAtRequest: 1,
    feeCents: 100_000,
    contestantShareCents: 75_000,
    platformShareCents: 25_000,
    messagePreview: 'Hello there, nice photo',
    paid: true,
    paymentStatus: 'paid',
    status: 'pending',
    expiresAt: '2026-12-03T10:00:00Z',
    closed: false,
    otherUserId: '00000000-0000-4000-8000-0000000000e1',
    createdAt: '2026-11-26T10:00:00Z',
    ...extra,
  };
}

const firstError = (message: string) => {
  const result = contactMessageSchema.safeParse({ message });
  return result.success ? null : result.error.issues[0]?.message;
};

describe('the contact message', () => {
  it('takes 10 to 1000 characters, counted after trimming', () => {
    expect(firstError('0123456789')).toBeNull();
    expect(firstError('x'.repeat(1000))).toBeNull();
    expect(firstError('  short   ')).toBe('Message must be at least 10 characters');
    expect(firstError('x'.repeat(1001))).toBe('Message must be less than 1000 characters');
  });

  it('counts characters against the limit', () => {
    expect(characterCount('')).toBe('0/1000');
    expect(characterCount('hello')).toBe('5/1000');
  });

  it('says before payment that the card is only held for 7 days', () => {
    expect(messages.holdNotice).toBe(
      "Your card is only held, not charged, until the contestant answers. If they deny or don't answer within 7 days, the hold is released.",
    );
  });
});

describe('checkoutReturn', () => {
  it('reads the checkout’s return to the leaderboard', () => {
    expect(checkoutReturn(new URLSearchParams('contact=success'))).toBe('success');
    expect(checkoutReturn(new URLSearchParams('contact=canceled'))).toBe('canceled');
    expect(checkoutReturn(new URLSearchParams(''))).toBeNull();
    expect(checkoutReturn(new URLSearchParams('contact=other'))).toBeNull();
  });
});

describe('contactErrorMessage', () => {
  it('shows the server’s words for the refusals meant for the user', () => {
    const open = new ApiError(409, 'request_open', 'You already have an open request with this contestant');
    expect(contactErrorMessage(open)).toBe('You already have an open request with this contestant');
    expect(contactErrorMessage(new ApiError(422, 'cannot_contact_self', "You can't contact your own entry"))).toBe("You can't contact your own entry");
    expect(contactErrorMessage(new ApiError(403, 'blocked', 'Not taking requests'))).toBe('Not taking requests');
    expect(contactErrorMessage(new ApiError(429, 'rate_limited', 'Too many'))).toBe('Too many');
  });

  it('says the spec’s words for anything else, and when no checkout URL came back', () => {
    expect(contactErrorMessage(new ApiError(500, 'internal_error', 'boom'))).toBe('Failed to process request. Please try again.');
    expect(contactErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to process request. Please try again.');
    expect(contactErrorMessage(new Error('No checkout URL returned'))).toBe('No checkout URL returned');
  });
});

describe('the report reason', () => {
  const reasonError = (reason: string) => {
    const result = reportReasonSchema.safeParse({ reason });
    return result.success ? null : result.error.issues[0]?.message;
  };

  it('takes 1 to 500 characters, counted after trimming', () => {
    expect(reasonError('x')).toBeNull();
    expect(reasonError('x'.repeat(500))).toBeNull();
    expect(reasonError(`  ${'x'.repeat(500)}  `)).toBeNull();
    expect(reasonError('   ')).toBe('Please say why you are reporting this requester');
    expect(reasonError('x'.repeat(501))).toBe('The reason must be at most 500 characters');
    expect(reportReasonSchema.parse({ reason: '  Rude messages \n' })).toEqual({ reason: 'Rude messages' });
  });
});

describe('reportErrorMessage', () => {
  it('shows the server’s words for a repeated report and a refused reason', () => {
    expect(reportErrorMessage(new ApiError(409, 'conflict', 'You have reported this request already'))).toBe('You have reported this request already');
    expect(reportErrorMessage(new ApiError(422, 'validation_failed', 'The reason must be at most 500 characters'))).toBe(
      'The reason must be at most 500 characters',
    );
  });

  it('says Failed to report requester for anything else', () => {
    expect(reportErrorMessage(new ApiError(404, 'not_found', 'Contact request not found'))).toBe('Failed to report requester');
    expect(reportErrorMessage(new ApiError(500, 'internal_error', 'boom'))).toBe('Failed to report requester');
    expect(reportErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to report requester');
    expect(reportErrorMessage(null)).toBe(messages.reportFailed);
  });
});

describe('splitReceived', () => {
  it('lists paid pending requests and approved ones apart', () => {
    const pending = request({ id: 'a' });
    const approved = request({ id: 'b', status: 'approved' });
    const unpaid = request({ id: 'c', paid: false, paymentStatus: 'pending_payment' });
    const denied = request({ id: 'd', status: 'denied' });
    expect(splitReceived([pending, approved, unpaid, denied])).toEqual({ pending: [pending], approved: [approved] });
  });
});

describe('sentState', () => {
  it('says what became of each request the user sent', () => {
    expect(sentState(request({ paid: false, paymentStatus: 'pending_payment' })).label).toBe('Awaiting payment');
    expect(sentState(request({ paid: false, paymentStatus: 'failed' })).label).toBe('Payment failed');
    expect(sentState(request()).label).toBe('Waiting for an answer');
    expect(sentState(request({ status: 'approved' })).label).toBe('Approved');
    expect(sentState(request({ status: 'approved', closed: true })).label).toBe('Closed');
  });

  it('tells the requester of a denied request that the hold was released', () => {
    const denied = sentState(request({ status: 'denied', paymentStatus: 'refunded' }));
    expect(denied.label).toBe('Denied');
    expect(denied.detail).toContain('hold on your card was released');
  });
});
