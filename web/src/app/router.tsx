import { lazy, type ReactNode } from 'react';
import { createBrowserRouter, Outlet, ScrollRestoration, type RouteObject } from 'react-router';
import { AppLayout } from '@/app/layout/app-layout';
import { paths } from '@/config/paths';
import { ADMIN_ACCESS_REQUIRED_MESSAGE } from '@/features/admin/utils/messages';
import { RequireAuth } from '@/features/auth/components/require-auth';
import { SIGN_IN_TO_APPLY_MESSAGE as PARTNER_SIGN_IN_MESSAGE } from '@/features/partners/utils/messages';
import { SIGN_IN_MESSAGE as PERSONALITY_SIGN_IN_MESSAGE } from '@/features/personality/utils/quiz-state';
import { RouteError } from './routes/route-error';

// The guards of admin pages and of Premium pages are chunks of their own too:
// the home page needs neither (only RequireAuth, small, stays in the bundle).
const RequireAdmin = lazy(() =>
  import('@/features/admin/components/require-admin').then((module) => ({ default: module.RequireAdmin })),
);
const FeatureGate = lazy(() =>
  import('@/features/premium/components/feature-gate').then((module) => ({ default: module.FeatureGate })),
);

// Every page is its own chunk, so the first load only fetches the layout.
const Landing = lazy(() => import('./routes/landing'));
const Upload = lazy(() => import('./routes/upload'));
const Results = lazy(() => import('./routes/results'));
const Leaderboard = lazy(() => import('./routes/leaderboard'));
const HowItWorks = lazy(() => import('./routes/how-it-works'));
const Privacy = lazy(() => import('./routes/privacy'));
const Terms = lazy(() => import('./routes/terms'));
const Guidelines = lazy(() => import('./routes/guidelines'));
const AccountCommunity = lazy(() => import('./routes/account-community'));
const Auth = lazy(() => import('./routes/auth'));
const AuthReset = lazy(() => import('./routes/auth-reset'));
const AccountSecure = lazy(() => import('./routes/account-secure'));
const Account = lazy(() => import('./routes/account'));
const Dashboard = lazy(() => import('./routes/dashboard'));
const UserDashboard = lazy(() => import('./routes/user-dashboard'));
const Premium = lazy(() => import('./routes/premium'));
const CheckoutSandbox = lazy(() => import('./routes/checkout-sandbox'));
const Editor = lazy(() => import('./routes/editor'));
const GlobalRanking = lazy(() => import('./routes/global-ranking'));
const PersonalityTest = lazy(() => import('./routes/personality-test'));
const ClaimOpportunities = lazy(() => import('./routes/claim-opportunities'));
const ContestantRequests = lazy(() => import('./routes/contestant-requests'));
const Messages = lazy(() => import('./routes/messages'));
const Earnings = lazy(() => import('./routes/earnings'));
const PayoutsSandboxOnboard = lazy(() => import('./routes/payouts-sandbox-onboard'));
const FeetUpload = lazy(() => import('./routes/feet-upload'));
const FeetResults = lazy(() => import('./routes/feet-results'));
const HandsUpload = lazy(() => import('./routes/hands-upload'));
const HandsResults = lazy(() => import('./routes/hands-results'));
const PetUpload = lazy(() => import('./routes/pet-upload'));
const PetResults = lazy(() => import('./routes/pet-results'));
const Partners = lazy(() => import('./routes/partners/partners'));
const PartnersApply = lazy(() => import('./routes/partners/apply'));
const PartnersPortal = lazy(() => import('./routes/partners/portal'));
const PartnersLeaderboard = lazy(() => import('./routes/partners/leaderboard'));
const Referral = lazy(() => import('./routes/referral'));
const AdminPartners = lazy(() => import('./routes/admin/partners'));
const AdminPayouts = lazy(() => import('./routes/admin/payouts'));
const RequestVerification = lazy(() => import('./routes/request-verification'));
const AdminVerification = lazy(() => import('./routes/admin/verification'));
const AdminLeaderboard = lazy(() => import('./routes/admin/leaderboard'));
const AdminOpportunities = lazy(() => import('./routes/admin/opportunities'));
const AdminAudit = lazy(() => import('./routes/admin/audit'));
const AdminPayments = lazy(() => import('./routes/admin/payments'));
const AdminReports = lazy(() => import('./routes/admin/reports'));
const Report = lazy(() => import('./routes/report'));
const Appeal = lazy(() => import('./routes/appeal'));
const NotFound = lazy(() => import('./routes/not-found'));

/**
 * An admin page: signed-out visitors go to sign in; then the server says
 * whether this user is an admin (every /admin/* route goes through here).
 */
function adminOnly(page: ReactNode, deniedMessage?: string) {
  return (
    <RequireAuth>
      <RequireAdmin deniedMessage={deniedMessage}>{page}</RequireAdmin>
    </RequireAuth>
  );
}

/** The route table (docs/spec-rules.md §2), plus the not-found page. */
export const routes: RouteObject[] = [
  {
    element: (
      <AppLayout>
        <Outlet />
        <ScrollRestoration />
      </AppLayout>
    ),
    errorElement: (
      <AppLayout>
        <RouteError />
      </AppLayout>
    ),
    children: [
      { path: paths.home.path, element: <Landing /> },
      { path: paths.upload.path, element: <Upload /> },
      { path: paths.results.path, element: <Results /> },
      { path: paths.leaderboard.path, element: <Leaderboard /> },
      { path: paths.howItWorks.path, element: <HowItWorks /> },
      { path: paths.privacy.path, element: <Privacy /> },
      { path: paths.terms.path, element: <Terms /> },
      { path: paths.guidelines.path, element: <Guidelines /> },
      {
        path: paths.community.path,
        element: (
          <RequireAuth>
            <AccountCommunity />
          </RequireAuth>
        ),
      },
      { path: paths.auth.path, element: <Auth /> },
      { path: paths.authReset.path, element: <AuthReset /> },
      { path: paths.accountSecure.path, element: <AccountSecure /> },
      {
        path: paths.account.path,
        element: (
          <RequireAuth>
            <Account />
          </RequireAuth>
        ),
      },
      {
        path: paths.dashboard.path,
        element: (
          <RequireAuth>
            <Dashboard />
          </RequireAuth>
        ),
      },
      {
        path: paths.userDashboard.path,
        element: (
          <RequireAuth>
            <UserDashboard />
          </RequireAuth>
        ),
      },
      { path: paths.premium.path, element: <Premium /> },
      {
        path: paths.checkoutSandbox.path,
        element: (
          <RequireAuth>
            <CheckoutSandbox />
          </RequireAuth>
        ),
      },
      {
        // Premium members enter; everyone else gets one free trial, then the offer of Premium.
        path: paths.editor.path,
        element: (
          <FeatureGate feature="ai_editor" title={paths.editor.title}>
            <Editor />
          </FeatureGate>
        ),
      },
      {
        // Entering the contest needs an account (spec: signed-out users go to /auth).
        path: paths.globalRanking.path,
        element: (
          <RequireAuth>
            <GlobalRanking />
          </RequireAuth>
        ),
      },
      {
        // The quiz is a Premium feature with one free trial (gated in the route, around the quiz
        // alone); a saved result and the detailed analysis, bought on its own, are always the user's.
        path: paths.personalityTest.path,
        element: (
          <RequireAuth message={PERSONALITY_SIGN_IN_MESSAGE}>
            <PersonalityTest />
          </RequireAuth>
        ),
      },
      { path: paths.claimOpportunities.path, element: <ClaimOpportunities /> },
      {
        // The inbox and the conversations are the user's own: sign in first, then back here.
        path: paths.contestantRequests.path,
        element: (
          <RequireAuth>
            <ContestantRequests />
          </RequireAuth>
        ),
      },
      {
        path: paths.messages.path,
        element: (
          <RequireAuth>
            <Messages />
          </RequireAuth>
        ),
      },
      {
        // Earnings and the payout account are the user's own: sign in first, then back here.
        path: paths.earnings.path,
        element: (
          <RequireAuth>
            <Earnings />
          </RequireAuth>
        ),
      },
      {
        path: paths.payoutsSandboxOnboard.path,
        element: (
          <RequireAuth>
            <PayoutsSandboxOnboard />
          </RequireAuth>
        ),
      },
      {
        // The server's feet analysis needs Premium or the trial (one analysis); the page says so first.
        path: paths.feetUpload.path,
        element: (
          <FeatureGate feature="feet_scoring" title={paths.feetUpload.title}>
            <FeetUpload />
          </FeatureGate>
        ),
      },
      { path: paths.feetResults.path, element: <FeetResults /> },
      {
        path: paths.handsUpload.path,
        element: (
          <FeatureGate feature="hands_scoring" title={paths.handsUpload.title}>
            <HandsUpload />
          </FeatureGate>
        ),
      },
      { path: paths.handsResults.path, element: <HandsResults /> },
      { path: paths.petUpload.path, element: <PetUpload /> },
      { path: paths.petResults.path, element: <PetResults /> },
      { path: paths.partners.path, element: <Partners /> },
      {
        // Applying and the portal need an account (docs/spec-rules.md §6 and §8).
        path: paths.partnersApply.path,
        element: (
          <RequireAuth message={PARTNER_SIGN_IN_MESSAGE}>
            <PartnersApply />
          </RequireAuth>
        ),
      },
      {
        path: paths.partnersPortal.path,
        element: (
          <RequireAuth>
            <PartnersPortal />
          </RequireAuth>
        ),
      },
      { path: paths.partnersLeaderboard.path, element: <PartnersLeaderboard /> },
      { path: paths.referral.path, element: <Referral /> },
      { path: paths.adminPartners.path, element: adminOnly(<AdminPartners />) },
      { path: paths.adminPayouts.path, element: adminOnly(<AdminPayouts />) },
      {
        path: paths.requestVerification.path,
        element: (
          <RequireAuth message="Please sign in to request verification">
            <RequestVerification />
          </RequireAuth>
        ),
      },
      // The verification page has its own words for a refusal (docs/spec-rules.md).
      { path: paths.adminVerification.path, element: adminOnly(<AdminVerification />, ADMIN_ACCESS_REQUIRED_MESSAGE) },
      { path: paths.adminLeaderboard.path, element: adminOnly(<AdminLeaderboard />) },
      { path: paths.adminOpportunities.path, element: adminOnly(<AdminOpportunities />) },
      { path: paths.adminAudit.path, element: adminOnly(<AdminAudit />) },
      { path: paths.adminPayments.path, element: adminOnly(<AdminPayments />) },
      { path: paths.adminReports.path, element: adminOnly(<AdminReports />) },
      { path: paths.report.path, element: <Report /> },
      { path: paths.appeal.path, element: <Appeal /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
