import { CircleCheckIcon, FlaskConicalIcon, LoaderCircleIcon, TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useCompleteSandboxPayoutAccount, useSandboxPayoutAccount } from '@/resources/payouts/payouts';

export const SANDBOX_ONBOARDING_NOTICE = 'Test payout account — no real bank details are asked for or stored.';
export const SANDBOX_ACCOUNT_NOT_FOUND_MESSAGE = 'This test payout account could not be found. Start again from your Earnings page.';
export const SANDBOX_COMPLETE_FAILED_MESSAGE = 'Something went wrong finishing this test setup. Please try again.';

/** Where the provider's onboarding returns the browser (Stripe's return_url does the same). */
export const ONBOARDING_RETURN_PATH = `${paths.earnings.path}?onboarding=return`;

/** What a failed "Finish test setup" says, in the user's words. */
export function completeErrorMessage(error: unknown): string {
  if (error instanceof ApiError && (error.code === 'not_found' || error.status === 404)) return SANDBOX_ACCOUNT_NOT_FOUND_MESSAGE;
  return SANDBOX_COMPLETE_FAILED_MESSAGE;
}

/**
 * /payouts/sandbox/onboard/:account, the embedded payment provider's payout
 * account onboarding (Stripe's hosted onboarding in production). It says
 * plainly that it is a test and asks for nothing; "Finish test setup" asks
 * the server to enable the account, then goes back to /earnings the way
 * Stripe would.
 */
export function SandboxOnboardingPage({ accountId }: { accountId: string }) {
  const account = useSandboxPayoutAccount(accountId);
  const complete = useCompleteSandboxPayoutAccount(accountId);
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);

  const finish = async () => {
    setFailure(null);
    try {
      await complete.mutateAsync();
      void navigate(ONBOARDING_RETURN_PATH);
    } catch (error) {
      setFailure(completeErrorMessage(error));
    }
  };

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-10 sm:px-6 sm:py-14 wrap-anywhere">
      <div role="note" className="mb-6 flex items-start gap-3 rounded-2xl border-2 border-dashed border-amber-400 bg-amber-50 p-4 text-amber-950" data-testid="sandbox-onboarding-notice">
        <FlaskConicalIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <p>
          <span className="font-bold">This is a test.</span> {SANDBOX_ONBOARDING_NOTICE}
        </p>
      </div>
      <h1 className="text-3xl font-extrabold tracking-tight">{paths.payoutsSandboxOnboard.title}</h1>

      {account.isPending ? (
        <p role="status" className="mt-8 flex items-center gap-2 text-muted-foreground">
          <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin text-brand-600" />
          Loading test account...
        </p>
      ) : account.isError ? (
        <div role="alert" className="mt-8 grid gap-4">
          <p className="font-semibold">{SANDBOX_ACCOUNT_NOT_FOUND_MESSAGE}</p>
          <Button asChild variant="outline" className="justify-self-start">
            <Link to={paths.earnings.path}>Back to Earnings</Link>
          </Button>
        </div>
      ) : (
        <Card className="mt-6">
          <CardHeader>
            <CardTitle className="text-lg">Your test payout account</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5">
            <dl className="grid gap-2">
              <div className="flex items-baseline justify-between gap-4">
                <dt className="shrink-0 text-muted-foreground">Email</dt>
                <dd className="min-w-0 text-right font-semibold" data-testid="sandbox-onboarding-email">
                  {account.data.email ?? 'No email on file'}
                </dd>
              </div>
              <div className="flex items-baseline justify-between gap-4">
                <dt className="shrink-0 text-muted-foreground">Bank details</dt>
                <dd className="text-right">None needed for a test</dd>
              </div>
            </dl>

            {failure ? (
              <div role="alert" className="flex items-start gap-3 rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950" data-testid="sandbox-onboarding-error">
                <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
                <p className="font-semibold">{failure}</p>
              </div>
            ) : null}

            {account.data.status === 'enabled' ? (
              <div className="grid gap-3" data-testid="sandbox-onboarding-done">
                <p className="flex items-center gap-2 font-semibold">
                  <CircleCheckIcon aria-hidden="true" className="size-5 text-emerald-700" />
                  This test payout account is already set up.
                </p>
                <Button asChild variant="outline" className="justify-self-start">
                  <Link to={paths.earnings.path}>Back to Earnings</Link>
                </Button>
              </div>
            ) : (
              <div className="grid gap-3">
                <Button size="lg" onClick={() => void finish()} disabled={complete.isPending || complete.isSuccess}>
                  {complete.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <CircleCheckIcon aria-hidden="true" />}
                  Finish test setup
                </Button>
                <p className="text-center text-xs text-muted-foreground">
                  This connects the test account as if onboarding had finished, and takes you back to your Earnings.{' '}
                  <Link to={paths.earnings.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                    Back to Earnings
                  </Link>
                </p>
              </div>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
