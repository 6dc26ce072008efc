import { useQueryClient } from '@tanstack/react-query';
import { CheckIcon, CircleCheckIcon, ClockIcon, CrownIcon, InfoIcon, LoaderCircleIcon, RotateCcwIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { paths } from '@/config/paths';
import { toast } from '@/lib/toast';
import { billingKeys, formatDate, isPremium, useSubscription, type SubscriptionStatus } from '@/resources/billing/billing';
import { useUpgrade } from '../hooks/use-upgrade';
import { CONFIRMING_PAYMENT_MESSAGE, NO_PAYMENT_YET_DETAIL, NO_PAYMENT_YET_MESSAGE, PAYMENT_SUCCESS_MESSAGE } from '../utils/messages';
import { PLAN_COMPARISON, PREMIUM_FEATURES, PREMIUM_PLAN_NAME, PREMIUM_PRICE_LABEL, planName } from '../utils/plan';

/**
 * Back from a checkout: the status is checked again every 2 s until the
 * server confirms the subscription (docs/spec-rules.md §9: a recheck after 2 s),
 * and the dashboard follows 1 s after the confirmation.
 */
export const SUCCESS_RECHECK_MS = 2_000;
/** Rechecks before the page stops asking and says so (30 s). */
export const SUCCESS_RECHECKS = 15;
export const SUCCESS_REDIRECT_MS = 1_000;
export const CHECKOUT_CANCELED_MESSAGE = 'Checkout canceled. You were not charged.';
/** Under the promo code field: a partner's code gives 10% off the first payment. */
export const PROMO_CODE_HINT = "Optional. A PrettyScore partner's promo code takes 10% off your first payment.";

/**
 * /premium: Premium Editing's price, what it unlocks, the free plan against
 * it, and Upgrade; a member sees their plan and its renewal date instead.
 */
export function PremiumPage() {
  const [searchParams] = useSearchParams();
  const success = searchParams.get('success') === 'true';
  const canceled = searchParams.get('canceled') === 'true';
  const subscription = useSubscription();
  const member = isPremium(subscription.data);
  // Only the server's answer says the payment went through: the return
  // address alone proves nothing.
  const confirmed = success && member;
  const { gaveUp, checkAgain } = useSuccessReturn(success, confirmed);

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <div className="text-center">
        <span className="inline-flex items-center gap-1.5 rounded-full border border-brand-100 bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">
          <CrownIcon aria-hidden="true" className="size-3.5" />
          {PREMIUM_PLAN_NAME}
        </span>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-balance sm:text-5xl">Go Premium</h1>
        <p className="mx-auto mt-3 max-w-2xl text-base text-pretty text-muted-foreground sm:text-lg">
          Unlimited AI edits and every premium feature, for one monthly price.
        </p>
      </div>

      {confirmed ? (
        <div role="status" className="mx-auto mt-8 flex max-w-2xl items-center gap-3 rounded-2xl border border-emerald-300 bg-emerald-50 p-4 text-emerald-950" data-testid="premium-success">
          <CircleCheckIcon aria-hidden="true" className="size-6 shrink-0 text-emerald-700" />
          <p className="font-semibold">
            {PAYMENT_SUCCESS_MESSAGE} <span className="font-normal">Taking you to your dashboard…</span>
          </p>
        </div>
      ) : success && gaveUp ? (
        <div role="status" className="mx-auto mt-8 flex max-w-2xl items-start gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="premium-no-payment">
          <ClockIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
          <div className="grid gap-2">
            <p className="font-semibold">{NO_PAYMENT_YET_MESSAGE}</p>
            <p>{NO_PAYMENT_YET_DETAIL}</p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" onClick={checkAgain}>
                <RotateCcwIcon aria-hidden="true" />
                Check again
              </Button>
              <Button asChild variant="outline" size="sm">
                <Link to={paths.account.path}>My Account</Link>
              </Button>
            </div>
          </div>
        </div>
      ) : success ? (
        <div role="status" className="mx-auto mt-8 flex max-w-2xl items-center gap-3 rounded-2xl border bg-muted p-4" data-testid="premium-confirming">
          <LoaderCircleIcon aria-hidden="true" className="size-5 shrink-0 animate-spin text-muted-foreground motion-reduce:animate-none" />
          <p className="font-semibold">
            {CONFIRMING_PAYMENT_MESSAGE}{' '}
            <span className="font-normal">Premium starts as soon as the payment provider confirms it; nothing is charged twice.</span>
          </p>
        </div>
      ) : null}
      {canceled ? (
        <div role="status" className="mx-auto mt-8 flex max-w-2xl items-center gap-3 rounded-2xl border bg-muted p-4" data-testid="premium-canceled">
          <InfoIcon aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
          <p className="font-semibold">{CHECKOUT_CANCELED_MESSAGE}</p>
        </div>
      ) : null}

      <div className="mt-10 grid gap-6 lg:grid-cols-[1fr_1.1fr]">
        <Card className="border-brand-200 shadow-lg shadow-brand-600/10">
          <CardHeader>
            <CardTitle className="text-xl">{PREMIUM_PLAN_NAME}</CardTitle>
            <p className="mt-2">
              <span className="text-5xl font-extrabold tracking-tight" data-testid="premium-price">
                {PREMIUM_PRICE_LABEL}
              </span>
              <span className="text-muted-foreground"> / month</span>
            </p>
          </CardHeader>
          <CardContent className="grid gap-6">
            <ul className="grid gap-3" aria-label="What Premium includes">
              {PREMIUM_FEATURES.map((feature) => (
                <li key={feature} className="flex items-start gap-2">
                  <CheckIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-600" />
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
            {member && subscription.data ? <MemberPlan status={subscription.data} /> : <UpgradeButton />}
          </CardContent>
        </Card>
        <Comparison />
      </div>
    </div>
  );
}

function UpgradeButton() {
  const { upgrade, pending } = useUpgrade();
  const [promoCode, setPromoCode] = useState('');
  const promoId = useId();
  return (
    <div className="grid gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={promoId}>Promo code</Label>
        <Input
          id={promoId}
          value={promoCode}
          onChange={(event) => setPromoCode(event.target.value.toUpperCase())}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="e.g. ADA10"
          aria-describedby={`${promoId}-hint`}
          className="h-11 font-mono"
        />
        <p id={`${promoId}-hint`} className="text-xs text-muted-foreground">
          {PROMO_CODE_HINT}
        </p>
      </div>
      <Button size="lg" onClick={() => void upgrade(promoCode)} disabled={pending} className="w-full">
        {pending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <CrownIcon aria-hidden="true" />}
        Upgrade to Premium
      </Button>
      <p className="text-center text-xs text-muted-foreground">Billed monthly. Cancel any time in My Account.</p>
    </div>
  );
}

/** A member's plan and when it renews (or ends, once cancelled at the period's end). */
function MemberPlan({ status }: { status: SubscriptionStatus }) {
  return (
    <div className="grid gap-3 rounded-2xl border border-emerald-300 bg-emerald-50 p-4 text-emerald-950" data-testid="premium-member">
      <p className="flex items-center gap-2 font-bold">
        <CircleCheckIcon aria-hidden="true" className="size-5 text-emerald-700" />
        You&apos;re a Premium Member
      </p>
      <p>
        Plan: <span className="font-semibold">{planName(status.plan)}</span>
      </p>
      {status.expires_at ? (
        <p data-testid="premium-renewal">
          {status.cancel_at_period_end ? 'Ends on ' : 'Renews on '}
          <span className="font-semibold">{formatDate(status.expires_at)}</span>
        </p>
      ) : null}
      <Button asChild variant="outline" className="justify-self-start">
        <Link to={paths.account.path}>Manage in My Account</Link>
      </Button>
    </div>
  );
}

function Comparison() {
  const cell = (value: boolean | string, plan: string) =>
    typeof value === 'string' ? (
      value
    ) : value ? (
      <>
        <CheckIcon aria-hidden="true" className="mx-auto size-5 text-emerald-600" />
        <span className="sr-only">Included in {plan}</span>
      </>
    ) : (
      <>
        <XIcon aria-hidden="true" className="mx-auto size-5 text-muted-foreground" />
        <span className="sr-only">Not in {plan}</span>
      </>
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Free vs Premium</CardTitle>
      </CardHeader>
      <CardContent>
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b">
              <th scope="col" className="py-2 pr-2 font-semibold">
                Feature
              </th>
              <th scope="col" className="px-2 py-2 text-center font-semibold">
                Free
              </th>
              <th scope="col" className="py-2 pl-2 text-center font-semibold text-brand-700">
                Premium
              </th>
            </tr>
          </thead>
          <tbody>
            {PLAN_COMPARISON.map((row) => (
              <tr key={row.feature} className="border-b last:border-b-0">
                <th scope="row" className="py-2.5 pr-2 font-medium">
                  {row.feature}
                </th>
                <td className="px-2 py-2.5 text-center text-muted-foreground">{cell(row.free, 'Free')}</td>
                <td className="py-2.5 pl-2 text-center font-semibold">{cell(row.premium, 'Premium')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}

/**
 * Back from a checkout (?success=true): until the server confirms the
 * subscription (the provider's event grants premium, not this page), 'We
 * are confirming your payment…' and a fresh check every 2 s; once it does,
 * 'Payment successful!' and the dashboard 1 s later. After SUCCESS_RECHECKS
 * checks without a payment the page stops waiting and says so (someone who
 * came here without paying would otherwise watch a spinner for ever);
 * Check again starts over.
 */
function useSuccessReturn(success: boolean, confirmed: boolean) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [round, setRound] = useState(0);
  const [gaveUpRound, setGaveUpRound] = useState<number | null>(null);
  const gaveUp = gaveUpRound === round;
  useEffect(() => {
    if (!success || confirmed) return;
    let rechecks = 0;
    const recheck = setInterval(() => {
      rechecks += 1;
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
      if (rechecks >= SUCCESS_RECHECKS) {
        clearInterval(recheck);
        setGaveUpRound(round);
      }
    }, SUCCESS_RECHECK_MS);
    return () => clearInterval(recheck);
  }, [success, confirmed, queryClient, round]);
  useEffect(() => {
    if (!confirmed) return;
    toast.success(PAYMENT_SUCCESS_MESSAGE, { id: 'premium-success' });
    const redirect = setTimeout(() => void navigate(paths.dashboard.path), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(redirect);
  }, [confirmed, navigate]);
  const checkAgain = () => {
    void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    setRound((current) => current + 1);
  };
  return { gaveUp, checkAgain };
}
