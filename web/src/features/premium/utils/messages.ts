/** The spec's words for the premium page and the feature gates (docs/spec-rules.md §8). */
export const SIGN_IN_TO_UPGRADE_MESSAGE = 'Please sign in to upgrade';
export const NO_ACTIVE_SESSION_MESSAGE = 'No active session. Please sign in again.';
export const CHECKOUT_FAILED_MESSAGE = 'Failed to start checkout. Please try again.';
/** The fallback when the server's activation names no words of its own. */
export const TRIAL_ACTIVATED_MESSAGE = 'Trial activated!';
export const FEATURE_CHECK_FAILED_MESSAGE = 'Failed to check feature access';
export const TRIAL_FAILED_MESSAGE = 'Failed to activate trial';
/** Shown on /premium?success=true once the server confirms the subscription. */
export const PAYMENT_SUCCESS_MESSAGE = 'Payment successful! Welcome to Premium.';
/** Shown on /premium?success=true until the server confirms the subscription. */
export const CONFIRMING_PAYMENT_MESSAGE = 'We are confirming your payment…';
/** Shown on /premium?success=true when no payment was confirmed within the page's wait. */
export const NO_PAYMENT_YET_MESSAGE = 'We have not received a payment from you.';
export const NO_PAYMENT_YET_DETAIL =
  'If you paid, Premium starts as soon as the payment provider confirms it: check again in a few minutes, or see My Account. If you left the checkout before paying, nothing was charged.';
/** A declined card in the sandbox checkout: nothing was charged or granted. */
export const CARD_DECLINED_MESSAGE = 'Your card was declined. No money was taken and nothing was granted.';
