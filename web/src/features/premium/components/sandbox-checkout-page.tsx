import { BanIcon, CreditCardIcon, FlaskConicalIcon, LoaderCircleIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { appPathOf } from '@/lib/checkout';
import { formatMoney, useSandboxAction, useSandboxCheckout, type SandboxAction, type SandboxCheckout } from '@/resources/billing/billing';
import { CARD_DECLINED_MESSAGE } from '../utils/messages';

export const SANDBOX_NOTICE = 'This is a test payment. No money moves and no card is charged.';
export const SANDBOX_LOAD_FAILED_MESSAGE = 'This checkout could not be found.';
export const SANDBOX_ACTION_FAILED_MESSAGE = 'Something went wrong with this test payment. Please try again.';

/**
 * '$9.99 / month' for a subscription, '$8.99 for the first month, then
 * $9.99 / month' when a promo code discounts the first payment only, and
 * '$4.99' for a one-time purchase.
 */
export function priceLabel(checkout: Pick<SandboxCheckout, 'amountCents' | 'currency' | 'mode'> & { renewalCents?: number | null }): string {
  const amount = formatMoney(checkout.amountCents, checkout.currency);
  if (checkout.mode !== 'subscription') return amount;
  if (checkout.renewalCents != null && checkout.renewalCents !== checkout.amountCents) {
    return `${amount} for the first month, then ${formatMoney(checkout.renewalCents, checkout.currency)} / month`;
  }
  return `${amount} / month`;
}

/**
 * /checkout/sandbox/:id, the embedded payment provider's checkout page. It
 * says plainly that nothing is charged, shows what is bought and for how
 * much, and offers Pay, Decline card and Cancel. Each button asks the
 * server, which turns it into provider events fulfilled by the same code as
 * Stripe's webhooks; the page then goes where the server says.
 */
export function SandboxCheckoutPage({ id }: { id: string }) {
  const checkout = useSandboxCheckout(id);
  const action = useSandboxAction(id);
  const navigate = useNavigate();
  const [declined, setDeclined] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const act = async (which: SandboxAction) => {
    setFailure(null);
    setDeclined(null);
    try {
      const outcome = await action.mutateAsync(which);
      const inApp = appPathOf(outcome.redirectUrl);
      if (inApp) void navigate(inApp);
      else window.location.assign(outcome.redirectUrl);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'card_declined') {
        // Nothing was charged or granted; the checkout stays open, to pay again or cancel.
        setDeclined(error.message || CARD_DECLINED_MESSAGE);
        return;
      }
      setFailure(error instanceof ApiError && error.code !== 'http_error' ? error.message : SANDBOX_ACTION_FAILED_MESSAGE);
    }
  };

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-10 sm:px-6 sm:py-14">
      <div role="note" className="mb-6 flex items-start gap-3 rounded-2xl border-2 border-dashed border-amber-400 bg-amber-50 p-4 text-amber-950" data-testid="sandbox-notice">
        <FlaskConicalIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <p>
          <span className="font-bold">Test checkout.</span> {checkout.data?.notice || SANDBOX_NOTICE}
        </p>
      </div>
      <h1 className="text-3xl font-extrabold tracking-tight">Test Checkout</h1>

      {checkout.isPending ? (
        <p role="status" className="mt-8 flex items-center gap-2 text-muted-foreground">
          <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin text-brand-600" />
          Loading checkout...
        </p>
      ) : checkout.isError ? (
        <div role="alert" className="mt-8 grid gap-4">
          <p className="font-semibold">{SANDBOX_LOAD_FAILED_MESSAGE}</p>
          <Button asChild variant="outline" className="justify-self-start">
            <Link to={paths.premium.path}>Back to Premium</Link>
          </Button>
        </div>
      ) : (
        <Card className="mt-6">
          <CardHeader>
            <CardTitle className="text-lg">You are buying</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5">
            <dl className="grid gap-2">
              <div className="flex items-baseline justify-between gap-4">
                <dt className="text-muted-foreground">Item</dt>
                <dd className="text-right font-semibold" data-testid="sandbox-description">
                  {checkout.data.description}
                </dd>
              </div>
              <div className="flex items-baseline justify-between gap-4">
                <dt className="text-muted-foreground">Amount</dt>
                <dd className="text-right text-2xl font-extrabold text-balance" data-testid="sandbox-amount">
                  {priceLabel(checkout.data)}
                </dd>
              </div>
            </dl>

            {declined ? (
              <div role="alert" className="flex items-start gap-3 rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950" data-testid="sandbox-declined">
                <BanIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
                <p className="font-semibold">{declined}</p>
              </div>
            ) : null}
            {failure ? (
              <div role="alert" className="flex items-start gap-3 rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950">
                <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
                <p className="font-semibold">{failure}</p>
              </div>
            ) : null}

            {checkout.data.status === 'open' ? (
              <div className="grid gap-3">
                <Button size="lg" onClick={() => void act('pay')} disabled={action.isPending}>
                  {action.isPending && action.variables === 'pay' ? (
                    <LoaderCircleIcon aria-hidden="true" className="animate-spin" />
                  ) : (
                    <CreditCardIcon aria-hidden="true" />
                  )}
                  Pay {checkout.data.renewalCents != null ? formatMoney(checkout.data.amountCents, checkout.data.currency) : priceLabel(checkout.data)}
                </Button>
                <div className="grid gap-3 sm:grid-cols-2">
                  <Button variant="outline" onClick={() => void act('decline')} disabled={action.isPending}>
                    <BanIcon aria-hidden="true" />
                    Decline card
                  </Button>
                  <Button variant="ghost" onClick={() => void act('cancel')} disabled={action.isPending}>
                    <XIcon aria-hidden="true" />
                    Cancel
                  </Button>
                </div>
                <p className="text-center text-xs text-muted-foreground">
                  Pay and Decline card act like a real card's answer; Cancel goes back without paying.
                </p>
              </div>
            ) : (
              <div className="grid gap-3" data-testid="sandbox-closed">
                <p className="font-semibold">This checkout is {checkout.data.status === 'complete' ? 'already paid' : 'closed'}.</p>
                <Button asChild variant="outline" className="justify-self-start">
                  <Link to={paths.premium.path}>Back to Premium</Link>
                </Button>
              </div>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
