import { CircleCheckIcon, ClockIcon, HandshakeIcon, LandmarkIcon, MousePointerClickIcon, PercentIcon, ShoppingBagIcon, TrophyIcon, WalletIcon } from 'lucide-react';
import type { ComponentType } from 'react';
import { Link, Navigate } from 'react-router';
import { ConnectPayoutAccountButton } from '@/components/connect-payout-account-button';
import { PageLoader } from '@/components/page-loader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { formatDate, formatMoney } from '@/resources/billing/billing';
import { isNoPartnerAccount, useMyPartnerPortal, type PartnerConversion, type PartnerPortal } from '@/resources/partners/partners';
import { useEarnings } from '@/resources/payouts/payouts';
import { referralLink } from '../utils/codes';
import {
  NO_CONVERSIONS_MESSAGE,
  PARTNER_DATA_FAILED_MESSAGE,
  PROMO_CODE_COPIED_MESSAGE,
  REFERRAL_LINK_COPIED_MESSAGE,
  UNDER_REVIEW_MESSAGE,
} from '../utils/messages';
import { conversionKindLabel, conversionStatusLabel, ratePercent, tierName } from '../utils/rules';
import { CopyBox } from './copy-box';
import { PartnerStatusBadge } from './status-badge';

/** /partners/portal (signed in): the partner's account, link, codes, earnings and newest conversions. */
export function PartnerPortalPage() {
  const portal = useMyPartnerPortal();

  let body;
  if (portal.isPending) body = <PageLoader />;
  else if (portal.isError) {
    // A signed-in user without an account is offered the application instead.
    if (isNoPartnerAccount(portal.error)) return <Navigate to={paths.partnersApply.path} replace />;
    body = (
      <p role="alert" className="text-destructive">
        {PARTNER_DATA_FAILED_MESSAGE}
      </p>
    );
  } else body = <Portal portal={portal.data} />;

  return (
    // wrap-anywhere and min-w-0: the partner's name, one long word at worst,
    // wraps instead of widening the page (482 px at 375; issue 44).
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 wrap-anywhere sm:px-6 sm:py-12">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <span aria-hidden="true" className="brand-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white">
            <HandshakeIcon className="size-6" />
          </span>
          <div className="min-w-0">
            <h1 className="text-3xl font-extrabold tracking-tight">Partner Portal</h1>
            {portal.data ? <p className="text-muted-foreground">{portal.data.account.displayName}</p> : null}
          </div>
        </div>
        <Button asChild variant="outline">
          <Link to={paths.partnersLeaderboard.path}>
            <TrophyIcon aria-hidden="true" />
            View Leaderboard
          </Link>
        </Button>
      </header>
      {body}
    </div>
  );
}

function Portal({ portal }: { portal: PartnerPortal }) {
  const { account, totals, recent } = portal;
  const link = referralLink(window.location.origin, account.code);
  return (
    <>
      <div className="flex flex-wrap items-center gap-3" data-testid="partner-status-line">
        <PartnerStatusBadge status={account.status} className="px-4 py-1.5 text-sm" />
        {account.status === 'pending' ? <p className="text-sm font-medium text-amber-900">{UNDER_REVIEW_MESSAGE}</p> : null}
        {account.status === 'suspended' ? (
          <p className="text-sm font-medium text-red-800">Your partner account is suspended. Please contact support.</p>
        ) : null}
      </div>

      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Your stats">
        <StatCard icon={MousePointerClickIcon} label="Clicks" value={account.totalClicks.toLocaleString('en-US')} testId="stat-clicks" />
        <StatCard icon={ShoppingBagIcon} label="Conversions" value={account.totalConversions.toLocaleString('en-US')} testId="stat-conversions" />
        <StatCard icon={WalletIcon} label="Total Earned" value={formatMoney(account.totalEarnedCents)} testId="stat-earned" />
        <StatCard
          icon={PercentIcon}
          label="Commission Rate"
          value={ratePercent(account.commissionRate)}
          note={`${tierName(account.tier)} tier`}
          testId="stat-rate"
        />
      </ul>

      <Card>
        <CardHeader>
          <CardTitle>Share and earn</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 md:grid-cols-2">
          <CopyBox label="Your Referral Link" value={link} copiedMessage={REFERRAL_LINK_COPIED_MESSAGE} buttonLabel="Copy referral link" testId="referral-link" />
          {account.promoCode ? (
            <CopyBox label="Your Promo Code" value={account.promoCode} copiedMessage={PROMO_CODE_COPIED_MESSAGE} buttonLabel="Copy promo code" testId="promo-code" />
          ) : null}
        </CardContent>
      </Card>

      <section aria-labelledby="earnings-heading" className="grid gap-3">
        <h2 id="earnings-heading" className="text-xl font-bold">
          Commissions
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Total label="Pending" value={totals.pendingCents} note={`In the ${portal.holdDays}-day refund window`} testId="total-pending" />
          <Total label="Payable" value={totals.payableCents} note="Paid with the next payout" testId="total-payable" />
          <Total label="Paid" value={totals.paidCents} note="Already sent to you" testId="total-paid" />
        </dl>
      </section>

      <PayoutsCard />

      <section aria-labelledby="recent-heading" className="grid gap-3">
        <h2 id="recent-heading" className="text-xl font-bold">
          Recent Conversions
        </h2>
        {recent.length === 0 ? (
          <p className="rounded-2xl border border-dashed p-6 text-center text-muted-foreground" data-testid="no-conversions">
            {NO_CONVERSIONS_MESSAGE}
          </p>
        ) : (
          <ConversionsTable conversions={recent} />
        )}
      </section>
    </>
  );
}

/**
 * Where the partner's money is sent: the same payout account as contact
 * earnings (GET /api/v1/payouts/earnings says its state), connected the same
 * way. Without the server's answer the button still shows: the server decides.
 */
function PayoutsCard() {
  const earnings = useEarnings();
  const account = earnings.data?.account ?? null;
  const mayConnect = !earnings.data || account !== null || earnings.data.canConnect;

  let status;
  if (account?.status === 'enabled') {
    status = (
      <p className="flex items-center gap-2 font-semibold" data-testid="partner-payout-connected">
        <CircleCheckIcon aria-hidden="true" className="size-5 shrink-0 text-emerald-700" />
        Payout account connected
      </p>
    );
  } else if (account?.status === 'onboarding') {
    status = <p>Your payout account setup is not finished yet.</p>;
  } else if (mayConnect) {
    status = <p>Connect a payout account so your commissions can be sent to you.</p>;
  } else {
    status = <p className="text-muted-foreground">A payout account opens once your partner account is approved.</p>;
  }

  return (
    <Card data-testid="partner-payouts">
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-center gap-2">
          <LandmarkIcon aria-hidden="true" className="size-5 text-brand-600" />
          Payouts
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status}
        <div className="flex flex-wrap items-start gap-3">
          {account?.status !== 'enabled' && mayConnect ? (
            <ConnectPayoutAccountButton label={account?.status === 'onboarding' ? 'Continue setup' : 'Connect payout account'} />
          ) : null}
          <Button asChild variant="outline">
            <Link to={paths.earnings.path}>View earnings</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function StatCard({ icon: Icon, label, value, note, testId }: { icon: ComponentType<{ className?: string }>; label: string; value: string; note?: string; testId: string }) {
  return (
    <li className="grid gap-1 rounded-2xl border bg-card p-4 shadow-sm" data-testid={testId}>
      <span className="flex items-center gap-2 text-sm text-muted-foreground">
        <Icon aria-hidden="true" className="size-4 text-brand-600" />
        {label}
      </span>
      <span className="text-2xl font-extrabold tracking-tight sm:text-3xl">{value}</span>
      {note ? <span className="text-xs font-semibold text-brand-700">{note}</span> : null}
    </li>
  );
}

function Total({ label, value, note, testId }: { label: string; value: number; note: string; testId: string }) {
  return (
    <div className="rounded-2xl border bg-card p-4 shadow-sm" data-testid={testId}>
      <dt className="text-sm font-semibold">{label}</dt>
      <dd className="text-2xl font-bold">{formatMoney(value)}</dd>
      <dd className="text-xs text-muted-foreground">{note}</dd>
    </div>
  );
}

const STATUS_TONE: Record<string, string> = {
  pending: 'bg-amber-50 text-amber-900 border-amber-300',
  payable: 'bg-sky-50 text-sky-900 border-sky-300',
  paid: 'bg-emerald-50 text-emerald-800 border-emerald-300',
  reversed: 'bg-muted text-muted-foreground border-border',
};

function ConversionsTable({ conversions }: { conversions: PartnerConversion[] }) {
  return (
    <div className="overflow-x-auto rounded-2xl border bg-card shadow-sm" role="region" aria-label="Recent Conversions" tabIndex={0}>
      <table className="w-full min-w-[22rem] text-left text-sm">
        <thead className="bg-muted/50">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Date
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Amount
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Commission
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {conversions.map((line) => (
            <tr key={line.id} className="border-t align-top" data-testid="conversion-row">
              <td className="px-3 py-2.5">
                {formatDate(line.createdAt)}
                {line.kind !== 'sale' ? <span className="block text-xs text-muted-foreground">{conversionKindLabel(line.kind)}</span> : null}
              </td>
              <td className="px-3 py-2.5">{formatMoney(line.amountCents)}</td>
              <td className={cn('px-3 py-2.5 font-semibold', line.commissionCents < 0 && 'text-red-700')} data-testid="conversion-commission">
                {formatMoney(line.commissionCents)}
              </td>
              <td className="px-3 py-2.5">
                <span className={cn('inline-block rounded-full border px-2 py-0.5 text-xs font-semibold', STATUS_TONE[line.status])}>
                  {conversionStatusLabel(line.status)}
                </span>
                {line.status === 'pending' ? (
                  <span className="mt-1 flex items-center gap-1 text-xs text-muted-foreground" data-testid="payable-on">
                    <ClockIcon aria-hidden="true" className="size-3" />
                    Payable on {formatDate(line.payableAt)}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
