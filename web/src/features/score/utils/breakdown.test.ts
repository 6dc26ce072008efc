import { describe, expect, it } from 'vitest';
import { barWidth, breakdownItems, formatOutOfTen } from './breakdown';

describe('breakdown items', () => {
  it('lists the four sub-scores in order with their labels', () => {
    expect(breakdownItems({ symmetry: 8.1, skinQuality: 7.2, facialHarmony: 9, overallBalance: 6.4 })).toEqual([
      { key: 'symmetry', label: 'Symmetry', value: 8.1 },
      { key: 'skinQuality', label: 'Skin Quality', value: 7.2 },
      { key: 'facialHarmony', label: 'Facial Harmony', value: 9 },
      { key: 'overallBalance', label: 'Overall Balance', value: 6.4 },
    ]);
  });

  it.each([
    [8.3, '8.3/10'],
    [9, '9.0/10'],
    [10, '10.0/10'],
  ])('shows %s as %s', (value, shown) => {
    expect(formatOutOfTen(value)).toBe(shown);
  });
});

describe('barWidth (value divided by 10)', () => {
  it.each([
    [8.3, '83%'],
    [10, '100%'],
    [0, '0%'],
    [5.5, '55%'],
    [7.35, '73.5%'],
    [0.1 * 3 * 10, '30%'],
    [12, '100%'],
    [-1, '0%'],
  ])('%s → %s', (value, width) => {
    expect(barWidth(value)).toBe(width);
  });
});
