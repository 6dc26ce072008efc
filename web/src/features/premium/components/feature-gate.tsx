import { CrownIcon, GiftIcon, LoaderCircleIcon, LogInIcon, RefreshCwIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { paths, signInPathFor } from '@/config/paths';
import type { FeatureName } from '@/resources/feature-access/feature-access';
import { useFeatureAccess } from '../hooks/use-feature-access';
import { FEATURE_CHECK_FAILED_MESSAGE } from '../utils/messages';

type FeatureGateProps = {
  feature: FeatureName;
  /** The page's name, as its title says it ('AI Photo Editor'). */
  title: string;
  children: ReactNode;
};

/**
 * Shows a gated page to premium members, and to anyone who has just
 * activated their one free trial; everyone else is offered the trial while
 * it lasts, then Premium. Signed-out visitors are asked to sign in.
 */
export function FeatureGate({ feature, title, children }: FeatureGateProps) {
  const gate = useFeatureAccess(feature);
  const location = useLocation();

  switch (gate.state) {
    case 'open':
      return children;
    case 'checking':
      return <PageLoader />;
    case 'signed-out': {
      const returnTo = `${location.pathname}${location.search}`;
      return (
        <GateCard title={title} heading={`Sign in to use the ${title}`} testId="gate-sign-in">
          <p>
            {title} is a Premium feature. Sign in to try it once for free, or to use it as often as you like with Premium.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button asChild>
              <Link to={signInPathFor(returnTo)} state={{ returnTo }}>
                <LogInIcon aria-hidden="true" />
                Sign In
              </Link>
            </Button>
            <PremiumLink variant="outline" />
          </div>
        </GateCard>
      );
    }
    case 'error':
      return (
        <GateCard title={title} heading={FEATURE_CHECK_FAILED_MESSAGE} testId="gate-error">
          <p>We could not check whether you can use the {title}. Please try again.</p>
          <div>
            <Button variant="outline" onClick={gate.retry}>
              <RefreshCwIcon aria-hidden="true" />
              Try Again
            </Button>
          </div>
        </GateCard>
      );
    case 'trial':
      return (
        <GateCard title={title} heading={`Try the ${title} for free`} testId="gate-trial">
          <p>
            {title} is a Premium feature. You have one free trial: use it now, or upgrade to Premium for unlimited use.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => void gate.activateTrial()} disabled={gate.activating}>
              {gate.activating ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <GiftIcon aria-hidden="true" />}
              Use Free Trial
            </Button>
            <PremiumLink variant="outline" />
          </div>
        </GateCard>
      );
    case 'locked':
      return (
        <GateCard title={title} heading={`Upgrade to Premium to keep using the ${title}`} testId="gate-premium">
          <p>
            {gate.access?.reason === 'trial_exceeded'
              ? `You have used your free trial of the ${title}.`
              : `${title} is a Premium feature.`}{' '}
            Premium Editing unlocks it, with unlimited AI edits, for $9.99 a month.
          </p>
          <div>
            <PremiumLink />
          </div>
        </GateCard>
      );
  }
}

function PremiumLink({ variant = 'default' }: { variant?: 'default' | 'outline' }) {
  return (
    <Button asChild variant={variant}>
      <Link to={paths.premium.path}>
        <CrownIcon aria-hidden="true" />
        Upgrade to Premium
      </Link>
    </Button>
  );
}

function GateCard({ title, heading, testId, children }: { title: string; heading: string; testId: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-12 sm:px-6 sm:py-16" data-testid={testId}>
      <PageTitle title={title} />
      <div className="grid gap-5 rounded-3xl border bg-card p-6 shadow-sm sm:p-10">
        <span aria-hidden="true" className="brand-gradient grid size-14 place-items-center rounded-2xl text-white shadow-lg shadow-brand-600/30">
          <CrownIcon className="size-7" />
        </span>
        <h1 className="text-2xl font-extrabold tracking-tight text-balance sm:text-3xl">{heading}</h1>
        <div className="grid gap-5 text-base text-pretty text-muted-foreground">{children}</div>
      </div>
    </div>
  );
}
