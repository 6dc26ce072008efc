/** The partner programme's words (docs/spec-rules.md §8). */
export const SIGN_IN_TO_APPLY_MESSAGE = 'Please sign in to apply';
export const PARTNER_EXISTS_MESSAGE = 'You already have a partner account';
export const APPLICATION_SUBMITTED_MESSAGE = "Application submitted! We'll review it shortly.";
export const APPLICATION_FAILED_MESSAGE = 'Failed to submit application';
export const DISPLAY_NAME_REQUIRED_MESSAGE = 'Display name is required';
export const PARTNER_DATA_FAILED_MESSAGE = 'Failed to load partner data';
export const UNDER_REVIEW_MESSAGE = 'Your application is under review';
export const REFERRAL_LINK_COPIED_MESSAGE = 'Referral link copied!';
export const PROMO_CODE_COPIED_MESSAGE = 'Promo code copied!';
export const NO_CONVERSIONS_MESSAGE = 'No conversions yet. Start sharing your referral link!';
export const LEADERBOARD_LOADING_MESSAGE = 'Loading leaderboard...';
export const LEADERBOARD_EMPTY_MESSAGE = 'No partners on the leaderboard yet';
export const PARTNERS_FAILED_MESSAGE = 'Failed to load partners';
export const NO_PARTNERS_MESSAGE = 'No partners found';
export const PAYOUTS_FAILED_MESSAGE = 'Failed to load data';
export const NO_UNPAID_MESSAGE = 'No unpaid conversions';
export const PAYOUT_SENT_MESSAGE = 'Payout marked as sent';
export const TRANSFER_FAILED_MESSAGE = 'Failed to send the payout through Stripe';
export const TRANSFER_PROVIDER_FAILED_MESSAGE =
  'Stripe did not accept the transfer. Nothing was marked as paid; press Pay through Stripe again to retry.';
export const REDIRECTING_MESSAGE = 'Redirecting...';

export const partnerStatusMessage = (status: string) => `Partner ${status}`;
export const transferSentMessage = (amount: string, partner: string) => `Sent ${amount} to ${partner} through Stripe`;
export const tierUpdatedMessage = (tier: string) => `Tier updated to ${tier}`;
