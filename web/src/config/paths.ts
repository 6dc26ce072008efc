/**
 * Every route of the app (both spec route tables), with the title and the
 * one-line purpose that the page shows until its feature is built.
 */
export type PageInfo = {
  path: string;
  title: string;
  purpose: string;
};

export const paths = {
  home: { path: '/', title: 'Home', purpose: 'Upload a photo and get a just-for-fun score from 1 to 10.' },
  upload: {
    path: '/upload',
    title: 'Upload Your Photo',
    purpose: 'Pick a photo by click or drop, check the preview, and get your score.',
  },
  results: {
    path: '/results',
    title: 'Your Results',
    purpose: 'Your score with its tier label and breakdown, AI edits, saving, sharing and a downloadable result card.',
  },
  leaderboard: {
    path: '/leaderboard',
    title: 'Global Leaderboard',
    purpose: 'Public ranked photos, each with a Contact button and its price.',
  },
  howItWorks: {
    path: '/how-it-works',
    title: 'How It Works',
    purpose: 'What happens to your photo and how the score is worked out.',
  },
  privacy: { path: '/privacy', title: 'Privacy Policy', purpose: 'How we treat your photos and your data.' },
  terms: {
    path: '/terms',
    title: 'Terms of Service',
    purpose: 'The agreement between you and PrettyScore: who may use what, fees, reports and appeals.',
  },
  guidelines: {
    path: '/guidelines',
    title: 'Community Guidelines',
    purpose: 'What may be posted and said on PrettyScore, rule by rule.',
  },
  community: {
    path: '/account/community',
    title: 'Join the Community',
    purpose: 'Before the leaderboard, contest, contact requests and chats: your date of birth, the terms and a confirmed address.',
  },
  auth: { path: '/auth', title: 'Sign In', purpose: 'Sign in or create an account with your email and a password.' },
  authReset: {
    path: '/auth/reset',
    title: 'Reset Password',
    purpose: 'Get a link to choose a new password, then set it.',
  },
  account: {
    path: '/account',
    title: 'My Account',
    purpose: 'Your email, password, two-factor authentication and your data.',
  },
  accountSecure: {
    path: '/account/secure',
    title: 'Secure Your Account',
    purpose: "Wasn't you? Sign out every device at once and get a link to set a new password.",
  },
  dashboard: {
    path: '/dashboard',
    title: 'My Photos',
    purpose: 'Your saved photos and their scores, sorted by date or rating, with an AI editor for each one.',
  },
  userDashboard: {
    path: '/user-dashboard',
    title: 'User Dashboard',
    purpose: 'Your stats at a glance, with Overview, My Photos, Personality and Premium tabs.',
  },
  checkoutSandbox: {
    path: '/checkout/sandbox/:id',
    title: 'Test Checkout',
    purpose: 'The built-in test checkout: a test payment where no money moves. Pay, decline the card or cancel.',
  },
  premium: {
    path: '/premium',
    title: 'Premium',
    purpose: 'Premium Editing: the plan, its price, what it unlocks compared with the free plan, and how to upgrade.',
  },
  editor: {
    path: '/editor',
    title: 'AI Photo Editor',
    purpose: 'Edit a photo with AI quick tools, a custom prompt and manual sliders, with undo, redo, save, share and download.',
  },
  globalRanking: {
    path: '/global-ranking',
    title: 'Global Ranking',
    purpose: 'The ranking contest: its prizes, how it works, its rules, and entering one of your top photos.',
  },
  personalityTest: {
    path: '/personality-test',
    title: 'Personality Test',
    purpose: 'A 20-question quiz, one question at a time, that ends with your personality type.',
  },
  claimOpportunities: {
    path: '/claim-opportunities',
    title: 'Claim Opportunities',
    purpose: 'Apply for modelling and brand opportunities.',
  },
  contestantRequests: {
    path: '/contestant-requests',
    title: 'Contact Requests',
    purpose: 'Requests from people who would like to contact you: approve or deny each one.',
  },
  earnings: {
    path: '/earnings',
    title: 'Earnings',
    purpose: 'Your share of approved contact fees: pending, available and paid, and the payout account it is sent to.',
  },
  payoutsSandboxOnboard: {
    path: '/payouts/sandbox/onboard/:account',
    title: 'Test Payout Account',
    purpose: 'The built-in test payout account setup: nothing real is asked for. Finish test setup and go back to Earnings.',
  },
  messages: {
    path: '/messages/:requestId',
    title: 'Messages',
    purpose: 'The private conversation that opens once a contact request is approved.',
  },
  feetUpload: { path: '/feet-upload', title: 'Feet Score', purpose: 'Upload a photo of your feet for a just-for-fun score.' },
  feetResults: {
    path: '/feet-results',
    title: 'Feet Score Results',
    purpose: 'Your feet score with its breakdown, ready to save or download.',
  },
  handsUpload: {
    path: '/hands-upload',
    title: 'Hands Score',
    purpose: 'Upload a photo of your hands for a just-for-fun score.',
  },
  handsResults: {
    path: '/hands-results',
    title: 'Hands Score Results',
    purpose: 'Your hands score with its breakdown, ready to save or download.',
  },
  petUpload: {
    path: '/pet-upload',
    title: 'Pet Cuteness Score',
    purpose: 'Free for all users! Upload a photo of your pet and get a cuteness score.',
  },
  petResults: {
    path: '/pet-results',
    title: 'Pet Cuteness Results',
    purpose: "Your pet's cuteness score out of 10.",
  },
  partners: {
    path: '/partners',
    title: 'Partner With Us',
    purpose: 'Our partner programme: share PrettyScore and earn commission on the members you bring.',
  },
  partnersApply: {
    path: '/partners/apply',
    title: 'Partner Application',
    purpose: 'Apply to the partner programme and receive your own referral link and code.',
  },
  partnersPortal: {
    path: '/partners/portal',
    title: 'Partner Portal',
    purpose: 'Your referral link and promo code, with your clicks, conversions and earnings.',
  },
  partnersLeaderboard: {
    path: '/partners/leaderboard',
    title: 'Partner Leaderboard',
    purpose: 'The top 10 approved partners by total earned.',
  },
  referral: {
    path: '/r/:code',
    title: 'Partner Referral Link',
    purpose: 'A partner’s referral link: it credits the partner who shared it and takes you to the home page.',
  },
  adminPartners: {
    path: '/admin/partners',
    title: 'Partner Management',
    purpose: 'For admins: review partner applications, set each partner’s status and tier.',
  },
  adminPayouts: {
    path: '/admin/payouts',
    title: 'Payouts Management',
    purpose: 'For admins: partners with unpaid conversions, and marking their payouts as paid.',
  },
  requestVerification: {
    path: '/request-verification',
    title: 'Request Verification',
    purpose: 'Ask for a verification badge on your profile.',
  },
  adminLeaderboard: {
    path: '/admin/leaderboard',
    title: 'Leaderboard Moderation',
    purpose: 'For admins: approve or reject leaderboard entries, feature or unlist listed ones, and review reports.',
  },
  adminOpportunities: {
    path: '/admin/opportunities',
    title: 'Opportunity Applications',
    purpose: 'For admins: opportunity applications, newest first, to answer within 48 hours; export them as CSV.',
  },
  adminAudit: {
    path: '/admin/audit',
    title: 'Admin Audit Log',
    purpose: 'For admins: every decision made on the admin pages, who made it and when, with the state before and after.',
  },
  adminPayments: {
    path: '/admin/payments',
    title: 'Payments',
    purpose: 'For admins: the newest payments with their payer, and refunds with a reason.',
  },
  adminReports: {
    path: '/admin/reports',
    title: 'Reports',
    purpose: 'For admins: every report in one queue, urgent first, each with the time left of its 48 hours; decisions and appeals.',
  },
  report: {
    path: '/report',
    title: 'Report Content',
    purpose: 'Report a shared page, a photo or a user: an admin answers within 48 hours.',
  },
  appeal: {
    path: '/appeal/:decisionId',
    title: 'Appeal a Decision',
    purpose: 'Read what was decided about your content and why, and appeal it once.',
  },
  adminVerification: {
    path: '/admin/verification',
    title: 'Verification Requests',
    purpose: 'For admins: approve or reject requests for a verification badge.',
  },
} as const satisfies Record<string, PageInfo>;

export type PathKey = keyof typeof paths;

/**
 * The sign-in page with a way back to `returnTo` (auth's afterSignInPath
 * follows it once signed in). Every feature that sends a visitor to sign in
 * builds its link here.
 */
export function signInPathFor(returnTo: string): string {
  return `${paths.auth.path}?returnTo=${encodeURIComponent(returnTo)}`;
}

/** The conversation of an approved contact request (/messages/{requestId}). */
export function messagesPathFor(requestId: string): string {
  return paths.messages.path.replace(':requestId', encodeURIComponent(requestId));
}

/** The appeal page of a decision (with the mail's token, for a user who cannot sign in). */
export function appealPath(decisionId: string, token?: string): string {
  const path = paths.appeal.path.replace(':decisionId', encodeURIComponent(decisionId));
  return token ? `${path}?token=${encodeURIComponent(token)}` : path;
}
