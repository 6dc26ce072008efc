import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { appPathOf, newIdempotencyKey } from '@/lib/checkout';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { createCheckout, formatMoney, type CreateCheckoutRequest } from '@/resources/billing/billing';
import { useCreateContactRequest, type ContactRequest } from '@/resources/contact-requests/contact-requests';
import { messages } from '../utils/rules';

/** Whom the user contacts: a leaderboard entry, as the page that lists it knows it. */
export type ContactTarget = {
  photoId: string;
  name: string;
  rank: number;
  /** The fee shown on the entry, in dollars; the server charges the fee of the rank at the moment of asking. */
  feeDollars: number;
};

type Metadata = NonNullable<CreateCheckoutRequest['metadata']>;

/**
 * The spec's create-checkout metadata for a contact request. Only
 * `contact_request_id` is read: the server prices from the rank it stored.
 * `fee_amount` (dollars) and `rank` go along as the spec has them; the
 * schema types them as free JSON values, hence the casts.
 */
export function contactCheckoutMetadata(request: Pick<ContactRequest, 'id' | 'feeCents' | 'rankAtRequest'>): Metadata {
  return {
    contact_request_id: request.id,
    fee_amount: (request.feeCents / 100) as unknown as Metadata['fee_amount'],
    rank: request.rankAtRequest as unknown as Metadata['rank'],
  };
}

/**
 * Send: the request is stored (unpaid) with the message, then
 * create-checkout for its fee, and off to the page it names (the sandbox's
 * checkout inside the app, or Stripe's). The checkout comes back to
 * /leaderboard?contact=success or ?contact=canceled. One idempotency key per
 * request and fee, so a double tap opens one checkout, while a fee changed
 * by a new rank asks for a new one. Resolves to an error message, or null
 * once the browser is on its way.
 */
export function useContactCheckout() {
  const { client } = useSession();
  const navigate = useNavigate();
  const create = useCreateContactRequest();
  const key = useRef<{ requestId: string; feeCents: number; value: string } | null>(null);

  const start = async (target: ContactTarget, message: string): Promise<void> => {
    const request = await create.mutateAsync({ photoId: target.photoId, message });
    if (request.feeCents !== Math.round(target.feeDollars * 100)) {
      // The rank moved since the page loaded: the new fee counts, and the checkout shows it.
      toast.info(`The price is now ${formatMoney(request.feeCents)}: ${target.name} is at rank #${request.rankAtRequest}.`);
    }
    const { data } = await client.getSession();
    const current = data.session;
    if (!current?.access_token) throw new Error(messages.processFailed);
    if (key.current?.requestId !== request.id || key.current.feeCents !== request.feeCents) {
      key.current = { requestId: request.id, feeCents: request.feeCents, value: newIdempotencyKey() };
    }
    const { url } = await createCheckout(
      {
        userId: current.user.id,
        email: current.user.email,
        type: 'contact_request',
        metadata: contactCheckoutMetadata(request),
      },
      key.current.value,
    );
    if (!url) throw new Error(messages.noCheckoutUrl);
    const inApp = appPathOf(url);
    if (inApp) void navigate(inApp);
    else window.location.assign(url);
  };

  return { start, creating: create.isPending };
}
