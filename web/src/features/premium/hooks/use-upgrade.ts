import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths, signInPathFor } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { appPathOf, newIdempotencyKey, normalizePromoCode } from '@/lib/checkout';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { createCheckout, PREMIUM_PLAN } from '@/resources/billing/billing';
import { CHECKOUT_FAILED_MESSAGE, NO_ACTIVE_SESSION_MESSAGE, SIGN_IN_TO_UPGRADE_MESSAGE } from '../utils/messages';

/** The server's message for the user, or the spec's fallback. */
export function checkoutErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.code !== 'http_error' && error.message ? error.message : CHECKOUT_FAILED_MESSAGE;
  return CHECKOUT_FAILED_MESSAGE;
}

/**
 * Upgrade: signed out, 'Please sign in to upgrade' and the sign-in page
 * (which comes back here); without a current session token, 'No active
 * session. Please sign in again.'; otherwise create-checkout for the
 * subscription and off to the page it names. The server sets the price; the
 * page sends no amount. One idempotency key per visit and promo code, so a
 * retried click returns the same checkout instead of opening a second one,
 * while a corrected promo code asks for a new one. The promo code (a
 * partner's, 10% off the first payment) goes trimmed and upper case, and
 * only when there is one; the server answers 422 `invalid_promo_code` to an
 * unknown code. Until the stored session has been read, Upgrade waits
 * (`pending`): a click then sent a signed-in user to the sign-in page and
 * back, as if signed out.
 */
export function useUpgrade() {
  const { session, client, status } = useSession();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const key = useRef<{ promoCode: string | null; value: string } | null>(null);

  const upgrade = async (promoCodeInput?: string) => {
    if (status === 'loading') return;
    if (!session) {
      toast.error(SIGN_IN_TO_UPGRADE_MESSAGE);
      void navigate(signInPathFor(paths.premium.path), { state: { returnTo: paths.premium.path } });
      return;
    }
    setPending(true);
    try {
      // The token the call will carry; auth-js refreshes it if it is about to expire.
      const { data } = await client.getSession();
      const current = data.session;
      if (!current?.access_token) {
        toast.error(NO_ACTIVE_SESSION_MESSAGE);
        return;
      }
      const promoCode = normalizePromoCode(promoCodeInput);
      if (key.current?.promoCode !== promoCode) key.current = { promoCode, value: newIdempotencyKey() };
      const { url } = await createCheckout(
        {
          userId: current.user.id,
          email: current.user.email,
          type: 'subscription',
          metadata: { plan_name: PREMIUM_PLAN },
          ...(promoCode ? { promoCode } : {}),
        },
        key.current.value,
      );
      if (!url) throw new Error('No checkout URL returned');
      const inApp = appPathOf(url);
      if (inApp) void navigate(inApp);
      else window.location.assign(url);
    } catch (error) {
      toast.error(checkoutErrorMessage(error));
    } finally {
      setPending(false);
    }
  };

  return { upgrade, pending: pending || status === 'loading' };
}
