import { CircleCheckIcon, ClockIcon, LoaderCircleIcon, RotateCcwIcon, WalletIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConnectPayoutAccountButton } from '@/components/connect-payout-account-button';
import { PageLoader } from '@/components/page-loader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { formatDate, formatMoney } from '@/resources/billing/billing';
import { useEarnings, type Earnings, type EarningsLine, type PayoutAccount } from '@/resources/payouts/payouts';
import { canReceive, earnsNothing, lineStateLabel, messages, onboardingReturn, payoutRule, reasonText, STATE_TONE } from '../utils/rules';

/**
 * How long the page keeps asking whether a payout account that has just come
 * back from onboarding is enabled (every 2 s: ONBOARDING_CONFIRM_POLL_MS)
 * before it says to come back later. The provider tells the server by a
 * webhook, which may arrive a moment after the browser.
 */
export const CONFIRM_FOR_MS = 10_000;

/**
 * /earnings (signed in): the payout account, the Pending, Available and Paid
 * totals, and each contact fee's share with where it stands. The server
 * decides every figure and who may connect an account; the page mirrors it.
 * The provider's onboarding comes back here with `?onboarding=return` (or
 * `refresh` when its link expired).
 */
export function EarningsPage() {
  const [search, setSearchParams] = useSearchParams();
  const back = onboardingReturn(search);
  const [gaveUp, setGaveUp] = useState(false);
  const earnings = useEarnings({ confirmingAccount: back === 'return' && !gaveUp });
  const enabled = earnings.data?.account?.status === 'enabled';

  useEffect(() => {
    if (back !== 'return') return;
    const timer = window.setTimeout(() => setGaveUp(true), CONFIRM_FOR_MS);
    return () => window.clearTimeout(timer);
  }, [back]);

  useEffect(() => {
    if (back !== 'return' || !enabled) return;
    // Said once: the address loses its ?onboarding, so a reload does not say it again.
    toast.success(messages.setUp, { id: 'payout-account-set-up' });
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('onboarding');
        return next;
      },
      { replace: true },
    );
  }, [back, enabled, setSearchParams]);

  let body;
  if (earnings.isPending) body = <PageLoader />;
  else if (earnings.isError) {
    body = (
      <div role="alert" className="grid justify-items-start gap-3">
        <p className="font-semibold text-destructive">{messages.loadFailed}</p>
        <Button variant="outline" onClick={() => void earnings.refetch()}>
          <RotateCcwIcon aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  } else body = <EarningsBody earnings={earnings.data} back={back} gaveUp={gaveUp} />;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <header className="flex items-center gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white">
          <WalletIcon className="size-6" />
        </span>
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">{paths.earnings.title}</h1>
          <p className="text-muted-foreground">Your share of approved contact fees, and where it is sent.</p>
        </div>
      </header>
      {body}
    </div>
  );
}

function EarningsBody({ earnings, back, gaveUp }: { earnings: Earnings; back: 'return' | 'refresh' | null; gaveUp: boolean }) {
  const { account, totals, lines } = earnings;
  return (
    <>
      <p className="rounded-2xl border border-brand-100 bg-brand-50 p-4 text-sm" data-testid="payout-rule">
        {payoutRule(earnings.payoutWindowDays, earnings.replyWindowDays)}
      </p>

      <AccountCard earnings={earnings} back={back} gaveUp={gaveUp} />

      <section aria-labelledby="totals-heading" className="grid gap-3">
        <h2 id="totals-heading" className="text-xl font-bold">
          Totals
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Total
            label="Pending"
            cents={totals.pendingCents}
            note={`Waiting for your answer or in the ${earnings.payoutWindowDays}-day refund window`}
            testId="total-pending"
          />
          <Total
            label="Available"
            cents={totals.availableCents}
            note={canReceive(account) ? 'Sent at the next payout run' : 'Connect a payout account to receive it'}
            testId="total-available"
          />
          <Total label="Paid" cents={totals.paidCents} note="Sent to your payout account" testId="total-paid" />
        </dl>
      </section>

      <section aria-labelledby="lines-heading" className="grid gap-3">
        <h2 id="lines-heading" className="text-xl font-bold">
          Your earnings
        </h2>
        {lines.length === 0 ? (
          <div className="grid justify-items-center gap-3 rounded-2xl border border-dashed p-6 text-center text-muted-foreground" data-testid="no-earnings">
            <p>{messages.noEarnings}</p>
            <Button asChild variant="outline" size="sm">
              <Link to={paths.contestantRequests.path}>Contact requests</Link>
            </Button>
          </div>
        ) : (
          <ul className="grid gap-3" aria-label="Your earnings">
            {lines.map((line) => (
              <LineRow key={line.id} line={line} account={account} replyWindowDays={earnings.replyWindowDays} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function AccountCard({ earnings, back, gaveUp }: { earnings: Earnings; back: 'return' | 'refresh' | null; gaveUp: boolean }) {
  const { account, canConnect } = earnings;
  const enabled = account?.status === 'enabled';
  const expired = back === 'refresh' && !enabled;

  let content;
  if (account?.status === 'enabled') {
    content = (
      <div className="flex items-start gap-3" data-testid="payout-account-connected">
        <CircleCheckIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
        <div>
          <p className="font-semibold">{messages.connected}</p>
          <p className="text-sm text-muted-foreground">
            {account.connectedAt ? `Since ${formatDate(account.connectedAt)}. ` : ''}
            What becomes payable is sent to it at the next payout run.
          </p>
        </div>
      </div>
    );
  } else if (account?.status === 'onboarding' || canConnect) {
    content = (
      <div className="grid gap-3">
        <p>{account ? messages.onboarding : messages.notConnected}</p>
        <ConnectPayoutAccountButton label={account || expired ? 'Continue setup' : 'Connect payout account'} className="justify-self-start" />
      </div>
    );
  } else {
    content = (
      <p className="text-muted-foreground" data-testid="payout-account-not-yet">
        {messages.cannotConnectYet}
      </p>
    );
  }

  return (
    <Card data-testid="payout-account" data-status={account?.status ?? 'none'}>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle>Payout account</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {back === 'return' && !enabled ? <ConfirmingNotice gaveUp={gaveUp} /> : null}
        {expired ? (
          <p role="status" className="flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-950" data-testid="onboarding-expired">
            <ClockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
            {messages.linkExpired}
          </p>
        ) : null}
        {content}
      </CardContent>
    </Card>
  );
}

function ConfirmingNotice({ gaveUp }: { gaveUp: boolean }) {
  return (
    <p role="status" className="flex items-start gap-2 rounded-xl border border-sky-300 bg-sky-50 p-3 text-sm font-medium text-sky-950" data-testid="onboarding-confirming">
      {gaveUp ? (
        <ClockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-sky-700" />
      ) : (
        <LoaderCircleIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 animate-spin text-sky-700" />
      )}
      {gaveUp ? messages.stillConfirming : messages.confirming}
    </p>
  );
}

function Total({ label, cents, note, testId }: { label: string; cents: number; note: string; testId: string }) {
  return (
    <div className="rounded-2xl border bg-card p-4 shadow-sm" data-testid={testId}>
      <dt className="text-sm font-semibold">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums">{formatMoney(cents)}</dd>
      <dd className="text-xs text-muted-foreground">{note}</dd>
    </div>
  );
}

function LineRow({ line, account, replyWindowDays }: { line: EarningsLine; account: PayoutAccount | null; replyWindowDays: number }) {
  const nothing = earnsNothing(line.state);
  const why = reasonText(line.reason, replyWindowDays);
  return (
    <li
      className="grid gap-3 rounded-2xl border bg-card p-4 shadow-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
      data-testid="earnings-line"
      data-state={line.state}
    >
      <div className="min-w-0">
        <p className="font-semibold">{line.description}</p>
        <p className="text-xs text-muted-foreground">{formatDate(line.createdAt)}</p>
        {why ? (
          <p className="mt-1 text-sm" data-testid="line-reason">
            {why}
          </p>
        ) : line.replyBy ? (
          <p className="mt-1 text-sm" data-testid="line-reply-by">
            Write to them in the chat by {formatDate(line.replyBy)}: your share is paid for the conversation, and if you send nothing by then the requester is refunded in full.
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <dl className="flex gap-6 text-sm">
          <div>
            <dt className="text-muted-foreground">Fee</dt>
            <dd className="tabular-nums" data-testid="line-fee">
              {formatMoney(line.feeCents)}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Your share</dt>
            <dd className={cn('font-bold tabular-nums', nothing && 'text-muted-foreground line-through')} data-testid="line-share">
              {formatMoney(line.amountCents)}
            </dd>
          </div>
        </dl>
        <span className={cn('inline-block rounded-full border px-2.5 py-0.5 text-xs font-semibold', STATE_TONE[line.state])} data-testid="line-status">
          {lineStateLabel(line, account)}
        </span>
      </div>
    </li>
  );
}
