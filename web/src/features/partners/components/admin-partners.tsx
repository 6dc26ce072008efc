import { WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { formatMoney } from '@/resources/billing/billing';
import { useAdminPartners, useSetPartnerStatus, useSetPartnerTier, type AdminPartner, type PartnerStatusFilter } from '@/resources/partners/partners';
import { NO_PARTNERS_MESSAGE, PARTNERS_FAILED_MESSAGE, partnerStatusMessage, tierUpdatedMessage } from '../utils/messages';
import { ratePercent, statusAction, TIERS, type PartnerTier } from '../utils/rules';
import { PartnerStatusBadge } from './status-badge';

const FILTERS: { value: PartnerStatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'suspended', label: 'Suspended' },
];

const failed = (error: unknown, fallback: string) => toast.error(error instanceof ApiError && error.message ? error.message : fallback);

/** /admin/partners: every partner account, filtered by status, with status moves and the tier. */
export function AdminPartners() {
  const [filter, setFilter] = useState<PartnerStatusFilter>('all');
  const partners = useAdminPartners(filter);
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight">Partner Management</h1>
        <Button asChild variant="outline">
          <Link to={paths.adminPayouts.path}>
            <WalletIcon aria-hidden="true" />
            View Payouts
          </Link>
        </Button>
      </div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Partners by status">
        {FILTERS.map((option) => (
          <Button
            key={option.value}
            size="sm"
            variant={option.value === filter ? 'default' : 'outline'}
            aria-pressed={option.value === filter}
            onClick={() => setFilter(option.value)}
          >
            {option.label}
          </Button>
        ))}
      </div>
      {partners.isPending ? (
        <p role="status">Loading partners...</p>
      ) : partners.isError ? (
        <p role="alert" className="text-destructive">
          {PARTNERS_FAILED_MESSAGE}
        </p>
      ) : partners.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed p-8 text-center text-muted-foreground">{NO_PARTNERS_MESSAGE}</p>
      ) : (
        // `relative`: the visually hidden labels in the rows are absolutely
        // positioned; without a positioned ancestor inside the scroller they
        // are placed against the page and widen it (by 416 px at 375 px).
        <div className="relative overflow-x-auto rounded-2xl border bg-card shadow-sm" role="region" aria-label="Partners" tabIndex={0}>
          <table className="w-full min-w-[52rem] text-left text-sm wrap-normal">
            <thead className="bg-muted/50">
              <tr>
                {['Partner', 'Code', 'Status', 'Tier', 'Clicks', 'Conv.', 'Earned', 'Actions'].map((column) => (
                  <th key={column} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {partners.data.map((partner) => (
                <PartnerRow key={partner.id} partner={partner} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function PartnerRow({ partner }: { partner: AdminPartner }) {
  const setStatus = useSetPartnerStatus();
  const setTier = useSetPartnerTier();
  const action = statusAction(partner.status);
  const busy = setStatus.isPending || setTier.isPending;
  const tierId = `tier-${partner.id}`;

  const changeStatus = async () => {
    if (!action) return;
    await setStatus.mutateAsync(
      { id: partner.id, status: action.next },
      { onSuccess: (account) => toast.success(partnerStatusMessage(account.status)), onError: (error) => failed(error, 'Failed to update partner') },
    );
  };
  const changeTier = (tier: PartnerTier) =>
    setTier.mutate(
      { id: partner.id, tier },
      { onSuccess: (account) => toast.success(tierUpdatedMessage(account.tier)), onError: (error) => failed(error, 'Failed to update tier') },
    );

  return (
    <tr className="border-t align-middle" data-testid="partner-row" data-partner-code={partner.code}>
      <th scope="row" className="px-3 py-2.5 text-left font-normal wrap-anywhere">
        <span className="block font-semibold">{partner.displayName}</span>
        {partner.email ? <span className="block text-xs break-all text-muted-foreground">{partner.email}</span> : null}
      </th>
      <td className="px-3 py-2.5">
        <span className="font-mono font-semibold">{partner.code}</span>
        {partner.promoCode ? <span className="block text-xs text-muted-foreground">Promo: {partner.promoCode}</span> : null}
      </td>
      <td className="px-3 py-2.5">
        <PartnerStatusBadge status={partner.status} />
      </td>
      <td className="px-3 py-2.5">
        <label htmlFor={tierId} className="sr-only">
          Tier for {partner.displayName}
        </label>
        <select
          id={tierId}
          value={setTier.isPending ? setTier.variables.tier : partner.tier}
          disabled={busy}
          onChange={(event) => changeTier(event.target.value as PartnerTier)}
          className="h-9 rounded-lg border bg-card px-2 text-sm"
        >
          {TIERS.map((tier) => (
            <option key={tier.tier} value={tier.tier}>
              {tier.name} ({ratePercent(tier.rate)})
            </option>
          ))}
        </select>
      </td>
      <td className="px-3 py-2.5 tabular-nums">{partner.totalClicks.toLocaleString('en-US')}</td>
      <td className="px-3 py-2.5 tabular-nums">{partner.totalConversions.toLocaleString('en-US')}</td>
      <td className="px-3 py-2.5 tabular-nums">{formatMoney(partner.totalEarnedCents)}</td>
      <td className="px-3 py-2.5">
        {action?.next === 'suspended' ? (
          <ConfirmButton
            disabled={busy}
            title={`Suspend ${partner.displayName}?`}
            description="Their referral link and promo code stop earning commission at once, and their portal shows the account as suspended. Earnings recorded so far stay; you can reactivate the account later."
            confirmLabel="Suspend"
            pendingLabel="Suspending..."
            onConfirm={changeStatus}
          >
            {action.label}
            <span className="sr-only"> {partner.displayName}</span>
          </ConfirmButton>
        ) : action ? (
          <Button size="sm" disabled={busy} onClick={() => void changeStatus().catch(() => undefined)}>
            {action.label}
            <span className="sr-only"> {partner.displayName}</span>
          </Button>
        ) : null}
      </td>
    </tr>
  );
}
