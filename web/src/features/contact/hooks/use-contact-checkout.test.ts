import { describe, expect, it } from 'vitest';
import { contactCheckoutMetadata } from './use-contact-checkout';

describe('contactCheckoutMetadata', () => {
  it('is the spec’s metadata: the request, its fee in dollars and the rank', () => {
    expect(contactCheckoutMetadata({ id: 'req-1', feeCents: 95_000, rankAtRequest: 2 })).toEqual({
      contact_request_id: 'req-1',
      fee_amount: 950,
      rank: 2,
    });
  });
});
