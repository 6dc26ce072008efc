/**
 * Every route of both spec route tables, with sample values for the
 * parameters, and the name its screenshot is saved under.
 */
export type AppRoute = { name: string; path: string };

export const appRoutes: AppRoute[] = [
  { name: 'home', path: '/' },
  { name: 'upload', path: '/upload' },
  { name: 'results', path: '/results' },
  { name: 'leaderboard', path: '/leaderboard' },
  { name: 'how-it-works', path: '/how-it-works' },
  { name: 'privacy', path: '/privacy' },
  { name: 'auth', path: '/auth' },
  { name: 'auth-reset', path: '/auth/reset' },
  { name: 'account', path: '/account' },
  { name: 'dashboard', path: '/dashboard' },
  { name: 'user-dashboard', path: '/user-dashboard' },
  { name: 'premium', path: '/premium' },
  { name: 'editor', path: '/editor' },
  { name: 'global-ranking', path: '/global-ranking' },
  { name: 'personality-test', path: '/personality-test' },
  { name: 'claim-opportunities', path: '/claim-opportunities' },
  { name: 'contestant-requests', path: '/contestant-requests' },
  { name: 'messages', path: '/messages/7b0e6f3a-2c1d-4e5f-9a8b-0c1d2e3f4a5b' },
  { name: 'earnings', path: '/earnings' },
  { name: 'payouts-sandbox-onboard', path: '/payouts/sandbox/onboard/acct_sample' },
  { name: 'feet-upload', path: '/feet-upload' },
  { name: 'feet-results', path: '/feet-results' },
  { name: 'hands-upload', path: '/hands-upload' },
  { name: 'hands-results', path: '/hands-results' },
  { name: 'pet-upload', path: '/pet-upload' },
  { name: 'pet-results', path: '/pet-results' },
  { name: 'partners', path: '/partners' },
  { name: 'partners-apply', path: '/partners/apply' },
  { name: 'partners-portal', path: '/partners/portal' },
  { name: 'partners-leaderboard', path: '/partners/leaderboard' },
  { name: 'referral', path: '/r/SAMPLE1' },
  { name: 'admin-partners', path: '/admin/partners' },
  { name: 'admin-payouts', path: '/admin/payouts' },
  { name: 'request-verification', path: '/request-verification' },
  { name: 'admin-verification', path: '/admin/verification' },
  { name: 'admin-leaderboard', path: '/admin/leaderboard' },
  { name: 'admin-opportunities', path: '/admin/opportunities' },
  { name: 'admin-audit', path: '/admin/audit' },
];

/** A path no route matches: the app shows its not-found page. */
export const unknownRoute: AppRoute = { name: 'not-found', path: '/this-page-does-not-exist' };
