import type { FaceBreakdown } from '../types';

export type BreakdownItem = { key: keyof FaceBreakdown; label: string; value: number };

const labels: Record<keyof FaceBreakdown, string> = {
  symmetry: 'Symmetry',
  skinQuality: 'Skin Quality',
  facialHarmony: 'Facial Harmony',
  overallBalance: 'Overall Balance',
};

/** The four breakdown items in the order the results screen shows them. */
export function breakdownItems(breakdown: FaceBreakdown): BreakdownItem[] {
  return (Object.keys(labels) as (keyof FaceBreakdown)[]).map((key) => ({
    key,
    label: labels[key],
    value: breakdown[key],
  }));
}

/** A sub-score shown as 'n/10'. */
export function formatOutOfTen(value: number): string {
  return `${(Math.round(value * 10) / 10).toFixed(1)}/10`;
}

/** The bar's width is value / 10, as a CSS percentage clamped to 0..100%. */
export function barWidth(value: number): string {
  const percent = Math.min(100, Math.max(0, value * 10));
  return `${Math.round(percent * 10) / 10}%`;
}
