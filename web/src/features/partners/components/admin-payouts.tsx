import { ArrowLeftIcon, BanknoteIcon, LandmarkIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { formatDate, formatMoney } from '@/resources/billing/billing';
import { useMarkPayoutPaid, usePayablePartners, useTransferPayout, type PayablePartner } from '@/resources/partners/partners';
import {
  NO_UNPAID_MESSAGE,
  PAYOUT_SENT_MESSAGE,
  PAYOUTS_FAILED_MESSAGE,
  TRANSFER_FAILED_MESSAGE,
  TRANSFER_PROVIDER_FAILED_MESSAGE,
  transferSentMessage,
} from '../utils/messages';
import { payoutAccountLabel } from '../utils/rules';

/** Refusals whose message the server words for the admin. */
const SHOWN_TRANSFER_CODES = new Set(['nothing_payable', 'no_payout_account']);

/** What a failed "Pay through Stripe" says. */
export function transferErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (SHOWN_TRANSFER_CODES.has(error.code) && error.message) return error.message;
    // The server says which: refused (nothing marked paid) or unconfirmed (press again, same transfer).
    if (error.code === 'payment_provider_failed') return error.message || TRANSFER_PROVIDER_FAILED_MESSAGE;
  }
  return TRANSFER_FAILED_MESSAGE;
}

/**
 * /admin/payouts: partners with unpaid conversions: what is payable now
 * (Mark as Paid), and what still waits out its refund window, with the date
 * the first of it becomes payable; and partners who owe money back (a
 * refund after their commission was paid out), which the next payout nets.
 */
export function AdminPayouts() {
  const payable = usePayablePartners();
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight">Payouts Management</h1>
        <Button asChild variant="outline">
          <Link to={paths.adminPartners.path}>
            <ArrowLeftIcon aria-hidden="true" />
            Back to Partners
          </Link>
        </Button>
      </div>
      <section aria-labelledby="unpaid-heading" className="grid gap-3">
        <h2 id="unpaid-heading" className="text-xl font-bold">
          Partners with Unpaid Conversions
        </h2>
        <p className="text-sm text-muted-foreground">
          Conversions become payable once their refund window (30 days unless configured otherwise) has passed. Pay through Stripe sends the payable amount to a partner’s connected
          payout account; Mark as Paid only records a payout you sent another way. Either covers the period from the first of this month to today.
        </p>
        {payable.isPending ? (
          <p role="status">Loading payouts...</p>
        ) : payable.isError ? (
          <p role="alert" className="text-destructive">
            {PAYOUTS_FAILED_MESSAGE}
          </p>
        ) : payable.data.length === 0 ? (
          <p className="rounded-2xl border border-dashed p-8 text-center text-muted-foreground">{NO_UNPAID_MESSAGE}</p>
        ) : (
          <ul className="grid gap-3" aria-label="Unpaid partners">
            {payable.data.map((partner) => (
              <PayableRow key={partner.partnerId} partner={partner} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

const ACCOUNT_TONE: Record<string, string> = {
  enabled: 'text-emerald-800',
  onboarding: 'text-amber-900',
  none: 'text-muted-foreground',
};

function PayableRow({ partner }: { partner: PayablePartner }) {
  const markPaid = useMarkPayoutPaid();
  const transfer = useTransferPayout();
  // One payout at a time: while either is on its way, neither can be pressed again.
  const busy = markPaid.isPending || transfer.isPending;
  // A transfer Stripe did not confirm is sent again (the same one, by its key) before anything new.
  const unconfirmed = partner.unconfirmedTransferCents > 0;
  const canTransfer = unconfirmed || (partner.payoutAccount === 'enabled' && partner.payableCents > 0);
  const transferCents = unconfirmed ? partner.unconfirmedTransferCents : partner.payableCents;
  const sendThroughStripe = () =>
    transfer.mutateAsync(partner.partnerId, {
      onSuccess: (payout) => toast.success(transferSentMessage(formatMoney(payout.totalAmountCents), partner.displayName)),
      onError: (error) => toast.error(transferErrorMessage(error)),
    });
  const pay = () =>
    markPaid.mutateAsync(partner.partnerId, {
      onSuccess: () => toast.success(PAYOUT_SENT_MESSAGE),
      onError: (error) => toast.error(error instanceof ApiError && error.message ? error.message : 'Failed to mark payout as paid'),
    });
  return (
    <li
      className="flex flex-col gap-3 rounded-2xl border bg-card p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
      aria-label={partner.displayName}
      data-testid="payable-partner"
    >
      <div className="min-w-0">
        <p className="font-bold">{partner.displayName}</p>
        <p className="font-mono text-sm text-muted-foreground">{partner.code}</p>
        <p className={cn('text-sm font-medium', ACCOUNT_TONE[partner.payoutAccount ?? 'none'])} data-testid="payout-account-status">
          Payout account: {payoutAccountLabel(partner.payoutAccount)}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-4 text-sm sm:flex sm:gap-6">
        <div>
          <dt className="text-muted-foreground">Unpaid Count</dt>
          <dd className="text-lg font-bold tabular-nums" data-testid="unpaid-count">
            {partner.payableCount}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Unpaid Amount</dt>
          <dd className="text-lg font-bold tabular-nums" data-testid="unpaid-amount">
            {formatMoney(partner.payableCents)}
          </dd>
        </div>
        {partner.owedBackCents > 0 ? (
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-muted-foreground">Owes back</dt>
            <dd className="font-semibold tabular-nums text-amber-900" data-testid="owed-back-amount">
              {formatMoney(partner.owedBackCents)}
              <span className="block text-xs font-normal text-muted-foreground">refunded after payout; deducted from the next payout</span>
            </dd>
          </div>
        ) : null}
        {unconfirmed ? (
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-muted-foreground">Not confirmed by Stripe</dt>
            <dd className="font-semibold tabular-nums text-amber-900" data-testid="unconfirmed-amount">
              {formatMoney(partner.unconfirmedTransferCents)}
              <span className="block text-xs font-normal text-muted-foreground">press Pay through Stripe to send the same transfer again</span>
            </dd>
          </div>
        ) : null}
        {partner.pendingCount > 0 ? (
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-muted-foreground">Pending</dt>
            <dd className="font-semibold tabular-nums" data-testid="pending-amount">
              {formatMoney(partner.pendingCents)} ({partner.pendingCount})
              {partner.nextPayableAt ? <span className="block text-xs font-normal text-muted-foreground">payable on {formatDate(partner.nextPayableAt)}</span> : null}
            </dd>
          </div>
        ) : null}
      </dl>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        {canTransfer ? (
          <ConfirmButton
            variant="default"
            size="default"
            destructive={false}
            disabled={busy}
            title={`Pay ${partner.displayName} through Stripe?`}
            description={
              unconfirmed
                ? `This sends the unconfirmed transfer of ${formatMoney(transferCents)} to ${partner.displayName} again. Stripe recognises it, so it is never paid twice.`
                : `This sends ${formatMoney(transferCents)} for ${partner.payableCount} conversion${partner.payableCount === 1 ? '' : 's'} to ${partner.displayName}'s connected payout account through Stripe, and marks them paid.`
            }
            confirmLabel="Pay through Stripe"
            pendingLabel="Sending..."
            onConfirm={sendThroughStripe}
          >
            <LandmarkIcon aria-hidden="true" />
            Pay through Stripe
            <span className="sr-only"> for {partner.displayName}</span>
          </ConfirmButton>
        ) : null}
        <ConfirmButton
          variant={canTransfer ? 'outline' : 'default'}
          size="default"
          destructive={false}
          disabled={busy || partner.payableCents <= 0}
          title={`Mark ${partner.displayName}'s payout as paid?`}
          description={`This records a payout of ${formatMoney(partner.payableCents)} for ${partner.payableCount} conversion${partner.payableCount === 1 ? '' : 's'} as sent to ${partner.displayName}. Those conversions are then paid and leave this list; it cannot be undone here, so send the money first.`}
          confirmLabel="Mark as Paid"
          pendingLabel="Marking as paid..."
          onConfirm={pay}
        >
          <BanknoteIcon aria-hidden="true" />
          Mark as Paid
          <span className="sr-only"> for {partner.displayName}</span>
        </ConfirmButton>
      </div>
    </li>
  );
}
