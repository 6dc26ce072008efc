import { CrownIcon, LoaderCircleIcon, ReceiptIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { formatDate, formatMoney, isPremium, useChangeRenewal, usePayments, useSubscription, type Payment } from '@/resources/billing/billing';
import { planName } from '../utils/plan';

export const RENEWAL_CHANGE_FAILED_MESSAGE = 'Failed to update your subscription. Please try again.';
export const SUBSCRIPTION_LOAD_FAILED_MESSAGE = 'Failed to load your subscription';
export const PAYMENTS_LOAD_FAILED_MESSAGE = 'Failed to load your payments';
export const NO_PAYMENTS_MESSAGE = 'No payments yet.';

/**
 * My Account's subscription: the plan, when it renews or ends, and Cancel at
 * period end / Resume. A cancelled subscription stays premium to the end of
 * the period already paid for; the server decides, this shows its answer.
 */
export function SubscriptionCard() {
  const subscription = useSubscription();
  const renewal = useChangeRenewal();
  const status = subscription.data;
  const member = isPremium(status);

  const change = async (action: 'cancel' | 'resume') => {
    try {
      const next = await renewal.mutateAsync(action);
      const until = next.expires_at ? formatDate(next.expires_at) : null;
      if (action === 'cancel') toast.success(until ? `Premium will end on ${until}. You keep it until then.` : 'Premium will not renew.');
      else toast.success(until ? `Premium resumed. It renews on ${until}.` : 'Premium resumed.');
    } catch (error) {
      toast.error(error instanceof ApiError && error.code !== 'http_error' ? error.message : RENEWAL_CHANGE_FAILED_MESSAGE);
    }
  };

  return (
    <Card data-testid="subscription-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CrownIcon className="size-5 text-brand-700" aria-hidden="true" />
          <span>Subscription</span>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {subscription.isPending ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" />
            Loading your subscription...
          </p>
        ) : subscription.isError ? (
          <p role="alert" className="font-semibold">
            {SUBSCRIPTION_LOAD_FAILED_MESSAGE}
          </p>
        ) : member && status ? (
          <>
            <dl className="grid gap-1">
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-muted-foreground">Plan</dt>
                <dd className="font-semibold" data-testid="subscription-plan">
                  {planName(status.plan)}
                </dd>
              </div>
              {status.expires_at ? (
                <div className="flex flex-wrap gap-x-2">
                  <dt className="text-muted-foreground">{status.cancel_at_period_end ? 'Ends on' : 'Renews on'}</dt>
                  <dd className="font-semibold" data-testid="subscription-date">
                    {formatDate(status.expires_at)}
                  </dd>
                </div>
              ) : null}
            </dl>
            {status.cancel_at_period_end ? (
              <p className="text-sm text-muted-foreground">Your Premium is cancelled and will not renew. You keep it until the end date.</p>
            ) : null}
            <div>
              {status.cancel_at_period_end ? (
                <Button onClick={() => void change('resume')} disabled={renewal.isPending}>
                  {renewal.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
                  Resume Subscription
                </Button>
              ) : (
                <Button variant="outline" onClick={() => void change('cancel')} disabled={renewal.isPending}>
                  {renewal.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
                  Cancel at Period End
                </Button>
              )}
            </div>
          </>
        ) : (
          <>
            <p>
              <span className="text-muted-foreground">Plan</span>{' '}
              <span className="font-semibold" data-testid="subscription-plan">
                Free
              </span>
            </p>
            <div>
              <Button asChild>
                <Link to={paths.premium.path}>
                  <CrownIcon aria-hidden="true" />
                  Upgrade to Premium
                </Link>
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The user's payments, newest first, with their amounts, dates and states. */
export function PaymentsCard() {
  const payments = usePayments();
  return (
    <Card data-testid="payments-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ReceiptIcon className="size-5 text-brand-700" aria-hidden="true" />
          <span>Payments</span>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {payments.isPending ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" />
            Loading your payments...
          </p>
        ) : payments.isError ? (
          <p role="alert" className="font-semibold">
            {PAYMENTS_LOAD_FAILED_MESSAGE}
          </p>
        ) : payments.data.length === 0 ? (
          <p className="text-muted-foreground">{NO_PAYMENTS_MESSAGE}</p>
        ) : (
          <ul className="grid divide-y" aria-label="Your payments">
            {payments.data.map((payment) => (
              <PaymentRow key={payment.id} payment={payment} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

const STATUS_LABELS: Record<string, string> = {
  succeeded: 'Paid',
  paid: 'Paid',
  refunded: 'Refunded',
  failed: 'Failed',
  pending: 'Pending',
  held: 'On hold',
  canceled: 'Cancelled',
  partially_refunded: 'Partly refunded',
};

function PaymentRow({ payment }: { payment: Payment }) {
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3" data-testid="payment-row">
      <div className="grid">
        <span className="font-semibold">{payment.description}</span>
        <span className="text-sm text-muted-foreground">{formatDate(payment.created_at)}</span>
      </div>
      <div className="grid text-right">
        <span className="font-semibold">{formatMoney(payment.amount_cents, payment.currency)}</span>
        <span className="text-sm text-muted-foreground">
          {STATUS_LABELS[payment.status] ?? payment.status}
          {payment.refunded_cents > 0 && (payment.status === 'partially_refunded' || payment.status === 'refunded')
            ? ` (${formatMoney(payment.refunded_cents, payment.currency)} back)`
            : ''}
        </span>
      </div>
    </li>
  );
}
