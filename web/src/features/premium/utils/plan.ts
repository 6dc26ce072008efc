/**
 * Premium Editing as the premium page shows it (docs/spec-rules.md §1,
 * 6 and 9). The server charges its own price; this is what the page says.
 */
export const PREMIUM_PLAN_NAME = 'Premium Editing';
export const PREMIUM_PRICE_LABEL = '$9.99';

export const PREMIUM_FEATURES = [
  'Unlimited AI photo edits',
  'The full AI Photo Editor: quick tools, custom prompts, sliders, undo and redo',
  'The 20-question Personality Test',
  'Feet and hands scoring',
  'A Premium Member badge on your dashboard',
  'Cancel any time: Premium lasts to the end of the month you paid for',
] as const;

/** The free plan against Premium, row by row: true is a tick, false a cross, text is said as it is. */
export const PLAN_COMPARISON: { feature: string; free: boolean | string; premium: boolean | string }[] = [
  { feature: 'AI beauty score and breakdown', free: true, premium: true },
  { feature: 'Pet cuteness score', free: true, premium: true },
  { feature: 'AI photo edits', free: '5 per session', premium: 'Unlimited' },
  { feature: 'AI Photo Editor', free: 'One free try', premium: true },
  { feature: 'Personality Test', free: 'One free try', premium: true },
  { feature: 'Feet scoring', free: 'One free try', premium: true },
  { feature: 'Hands scoring', free: 'One free try', premium: true },
  { feature: 'Premium Member badge', free: false, premium: true },
];

/** The plan's name for a plan id ('premium_editing' → 'Premium Editing'). */
export function planName(plan: string | null | undefined): string {
  if (!plan) return 'Free';
  if (plan === 'premium_editing') return PREMIUM_PLAN_NAME;
  return plan
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
