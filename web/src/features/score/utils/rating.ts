/**
 * The spec's score tiers (docs/spec-rules.md §4). The server computes the
 * label it sends; this mirrors its table for display fallbacks and tests.
 */
const tiers: { min: number; label: string }[] = [
  { min: 10, label: "WORLD'S MOST BEAUTIFUL" },
  { min: 9.5, label: 'Elite Beauty' },
  { min: 9, label: 'Exceptional' },
  { min: 8.5, label: 'Absolutely Stunning' },
  { min: 8, label: 'Gorgeous' },
  { min: 7.5, label: 'Beautiful' },
  { min: 7, label: 'Very Pretty' },
  { min: 6, label: 'Pretty' },
];

/** Scores carry one decimal; compare in tenths so 9.5 - 1e-15 still counts as 9.5. */
export function toTenths(score: number): number {
  return Math.round(score * 10);
}

export function ratingLabel(score: number): string {
  const tenths = toTenths(score);
  return tiers.find((tier) => tenths >= Math.round(tier.min * 10))?.label ?? 'Lovely';
}

/** A score as shown: one decimal ("8.0", "10.0"). */
export function formatScore(score: number): string {
  return (toTenths(score) / 10).toFixed(1);
}
