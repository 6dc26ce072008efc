import { CameraIcon, GlobeIcon, LogOutIcon, ShieldCheckIcon, WandSparklesIcon } from 'lucide-react';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { VerifiedBadge } from '@/components/verified-badge';
import { paths } from '@/config/paths';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { StatsCards } from '@/features/dashboard/components/stats-cards';
import { PersonalityHistory } from '@/features/personality/components/personality-history';
import { SubscriptionCard } from '@/features/premium/components/billing-cards';
import { PremiumMemberBanner } from '@/features/premium/components/premium-member-banner';
import { useSession } from '@/lib/session';
import { useDashboardSummary } from '@/resources/dashboard/get-dashboard';
import { MyPhotosPanel } from './my-photos-panel';

/**
 * /user-dashboard (signed in): the stats cards and the Overview, My Photos,
 * Personality and Premium tabs. Members see the Premium Member badge with
 * feet and hands shortcuts; verified users their badge, others a Get
 * Verified link. Sign Out leads to /.
 */
export default function UserDashboardRoute() {
  const { session } = useSession();
  const summary = useDashboardSummary();
  const { signOut, pending } = useSignOut();

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.userDashboard.title} />
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="flex flex-wrap items-center gap-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
            User Dashboard
            {summary.data?.verified ? <VerifiedBadge /> : null}
          </h1>
          {session?.user.email ? <p className="mt-1 text-sm text-muted-foreground">Signed in as {session.user.email}</p> : null}
        </div>
        <Button variant="outline" onClick={() => void signOut()} disabled={pending}>
          <LogOutIcon aria-hidden="true" />
          Sign Out
        </Button>
      </header>

      {summary.isPending ? (
        <PageLoader />
      ) : summary.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-2xl border border-dashed p-4">
          <p className="font-semibold">Failed to load your dashboard</p>
          <Button variant="outline" size="sm" onClick={() => void summary.refetch()}>
            Try Again
          </Button>
        </div>
      ) : (
        <StatsCards summary={summary.data} />
      )}

      <Tabs defaultValue="overview" className="flex flex-col gap-4">
        <TabsList aria-label="Dashboard sections" className="auto-cols-auto">
          <TabsTrigger className="px-1.5 text-[13px] whitespace-nowrap sm:px-3 sm:text-sm" value="overview">Overview</TabsTrigger>
          <TabsTrigger className="px-1.5 text-[13px] whitespace-nowrap sm:px-3 sm:text-sm" value="photos">My Photos</TabsTrigger>
          <TabsTrigger className="px-1.5 text-[13px] whitespace-nowrap sm:px-3 sm:text-sm" value="personality">Personality</TabsTrigger>
          <TabsTrigger className="px-1.5 text-[13px] whitespace-nowrap sm:px-3 sm:text-sm" value="premium">Premium</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="grid gap-4">
          <PremiumMemberBanner />
          <div className="grid gap-3 sm:grid-cols-3">
            <Button asChild variant="outline" size="lg">
              <Link to={paths.upload.path}>
                <CameraIcon aria-hidden="true" />
                Score a Photo
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <Link to={paths.editor.path}>
                <WandSparklesIcon aria-hidden="true" />
                AI Photo Editor
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <Link to={paths.globalRanking.path}>
                <GlobeIcon aria-hidden="true" />
                Global Ranking
              </Link>
            </Button>
          </div>
          {summary.data && !summary.data.verified ? (
            <p className="flex flex-wrap items-center gap-2 rounded-2xl border bg-card p-4 text-sm">
              <ShieldCheckIcon aria-hidden="true" className="size-5 text-primary" />
              Show others your profile is really you.
              <Link to={paths.requestVerification.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                Get Verified
              </Link>
            </p>
          ) : null}
        </TabsContent>
        <TabsContent value="photos">
          <MyPhotosPanel embedded />
        </TabsContent>
        <TabsContent value="personality">{session ? <PersonalityHistory /> : null}</TabsContent>
        <TabsContent value="premium" className="grid gap-4">
          <SubscriptionCard />
          {summary.data && !summary.data.premium ? (
            <p className="text-sm text-muted-foreground">
              Compare the plans on the{' '}
              <Link to={paths.premium.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                Premium page
              </Link>
              .
            </p>
          ) : null}
        </TabsContent>
      </Tabs>
    </div>
  );
}
