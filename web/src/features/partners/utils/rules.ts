/**
 * Small rules of the partner pages: tiers and their rates, the status badge,
 * the admin's next move for each status. Pure, so they are tested alone.
 */

export type PartnerStatus = 'pending' | 'approved' | 'suspended';
export type PartnerTier = 'starter' | 'pro' | 'elite';
export type ConversionStatus = 'pending' | 'payable' | 'paid' | 'reversed';
export type ConversionKind = 'sale' | 'parent' | 'clawback';

/** The three commission tiers (docs/spec-rules.md §9). */
export const TIERS: { tier: PartnerTier; name: string; rate: number }[] = [
  { tier: 'starter', name: 'Starter', rate: 0.15 },
  { tier: 'pro', name: 'Pro', rate: 0.2 },
  { tier: 'elite', name: 'Elite', rate: 0.3 },
];

/** A parent partner earns this share of each commission of a partner they referred. */
export const PARENT_SHARE = 0.1;

export function tierName(tier: string): string {
  return TIERS.find((entry) => entry.tier === tier)?.name ?? tier.charAt(0).toUpperCase() + tier.slice(1);
}

/** 0.2 → '20%'. */
export function ratePercent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** The portal's status badge: APPROVED green, PENDING yellow, anything else red. */
export function statusBadge(status: string): { label: string; tone: 'green' | 'yellow' | 'red' } {
  const label = status.toUpperCase();
  if (status === 'approved') return { label, tone: 'green' };
  if (status === 'pending') return { label, tone: 'yellow' };
  return { label, tone: 'red' };
}

/**
 * The admin's move for a partner in this status: approve a pending one,
 * suspend an approved one, reactivate a suspended one.
 */
export function statusAction(status: string): { label: 'Approve' | 'Suspend' | 'Reactivate'; next: 'approved' | 'suspended' } | null {
  if (status === 'pending') return { label: 'Approve', next: 'approved' };
  if (status === 'approved') return { label: 'Suspend', next: 'suspended' };
  if (status === 'suspended') return { label: 'Reactivate', next: 'approved' };
  return null;
}

/** What each commission line is, said plainly. */
export function conversionKindLabel(kind: string): string {
  if (kind === 'parent') return 'Sub-affiliate';
  if (kind === 'clawback') return 'Refund';
  return 'Sale';
}

export function conversionStatusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** The admin's word for a partner's payout account: 'connected', 'setting up' or 'not connected'. */
export function payoutAccountLabel(state: 'onboarding' | 'enabled' | null | undefined): string {
  if (state === 'enabled') return 'connected';
  if (state === 'onboarding') return 'setting up';
  return 'not connected';
}
