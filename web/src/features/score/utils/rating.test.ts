import { describe, expect, it } from 'vitest';
import { formatScore, ratingLabel } from './rating';

describe('ratingLabel (the spec tier table)', () => {
  it.each([
    [10, "WORLD'S MOST BEAUTIFUL"],
    [9.9, 'Elite Beauty'],
    [9.5, 'Elite Beauty'],
    [9.4, 'Exceptional'],
    [9, 'Exceptional'],
    [8.9, 'Absolutely Stunning'],
    [8.5, 'Absolutely Stunning'],
    [8.4, 'Gorgeous'],
    [8, 'Gorgeous'],
    [7.9, 'Beautiful'],
    [7.5, 'Beautiful'],
    [7.4, 'Very Pretty'],
    [7, 'Very Pretty'],
    [6.9, 'Pretty'],
    [6, 'Pretty'],
    [5.9, 'Lovely'],
    [1, 'Lovely'],
  ])('labels %s as %j', (score, label) => {
    expect(ratingLabel(score)).toBe(label);
  });

  it('does not fall below a boundary through floating-point noise', () => {
    expect(ratingLabel(0.1 * 95)).toBe('Elite Beauty'); // 9.500000000000002
    expect(ratingLabel(9.5 - 1e-12)).toBe('Elite Beauty');
    expect(ratingLabel(0.7 + 0.1 + 7.2)).toBe('Gorgeous'); // 7.999999999999999
  });
});

describe('formatScore', () => {
  it.each([
    [8, '8.0'],
    [8.25, '8.3'],
    [10, '10.0'],
    [7.999999999999999, '8.0'],
  ])('shows %s as %s', (score, shown) => {
    expect(formatScore(score)).toBe(shown);
  });
});
