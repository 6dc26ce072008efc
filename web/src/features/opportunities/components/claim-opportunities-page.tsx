import { CheckCircle2Icon, ClockIcon, LogInIcon, SparklesIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { signInPathFor } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useMyApplication, type ApplicationView } from '@/resources/opportunities/applications';
import { CONTACT_WITHIN_HOURS, SIGN_IN_MESSAGE } from '../utils/application-schema';
import { OpportunityForm } from './opportunity-form';

/** /claim-opportunities: the application form; visitors are asked to sign in and come back. */
export function ClaimOpportunitiesPage() {
  const { status, session } = useSession();
  const mine = useMyApplication();

  let body;
  if (status === 'loading' || (session && mine.isPending)) {
    body = <PageLoader />;
  } else if (!session) {
    body = <SignInPrompt />;
  } else if (mine.data) {
    body = <ApplicationReceived application={mine.data} />;
  } else {
    body = (
      <Card>
        <CardHeader>
          <CardTitle>Your application</CardTitle>
          <CardDescription>One application per account. Fields marked optional can be left blank.</CardDescription>
        </CardHeader>
        <CardContent>
          <OpportunityForm email={session.user.email} onAlreadyApplied={() => void mine.refetch()} />
        </CardContent>
      </Card>
    );
  }

  return (
    // wrap-anywhere: a name or address of one long word wraps instead of
    // widening the page (391 px at 375 with the longest name; issue 44).
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 wrap-anywhere sm:px-6 sm:py-12">
      <header className="brand-gradient-strong rounded-3xl p-6 text-white shadow-md sm:p-10">
        <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-white/90">
          <SparklesIcon aria-hidden="true" className="size-4" />
          Modelling and brand work
        </p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Claim Your Opportunities</h1>
        <p className="mt-3 max-w-xl text-white/90">
          Apply for fashion and commercial modelling, brand partnerships, social media campaigns and more.
        </p>
        <p className="mt-4 inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-medium">
          <ClockIcon aria-hidden="true" className="size-4" />
          Our team will contact you within {CONTACT_WITHIN_HOURS} hours
        </p>
      </header>
      {body}
    </div>
  );
}

function SignInPrompt() {
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}`;
  return (
    <Card data-testid="opportunities-sign-in">
      <CardHeader>
        <CardTitle>Sign in to apply</CardTitle>
        <CardDescription>{SIGN_IN_MESSAGE}: applications are tied to your account, so we can reach you and you can see yours.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild>
          <Link to={signInPathFor(returnTo)} state={{ returnTo }}>
            <LogInIcon aria-hidden="true" />
            Sign In
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function ApplicationReceived({ application }: { application: ApplicationView }) {
  const sent = new Date(application.createdAt).toLocaleDateString(undefined, { dateStyle: 'long' });
  return (
    <Card data-testid="application-received">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CheckCircle2Icon aria-hidden="true" className="size-5 text-emerald-600" />
          Application received
        </CardTitle>
        <CardDescription>
          You applied on {sent} as {application.fullName} ({application.email}).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {application.contactedAt ? (
          <p>Our team has been in touch. Check your email, including the spam folder.</p>
        ) : (
          <p>Our team will contact you within {CONTACT_WITHIN_HOURS} hours of your application, at the email address above.</p>
        )}
        {application.interests.length > 0 ? <p className="text-muted-foreground">Interests: {application.interests.join(', ')}</p> : null}
      </CardContent>
    </Card>
  );
}
