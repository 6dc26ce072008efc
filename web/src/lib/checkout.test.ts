import { describe, expect, it } from 'vitest';
import { appPathOf, normalizePromoCode } from './checkout';

describe('normalizePromoCode', () => {
  it('trims and upper-cases a code', () => {
    expect(normalizePromoCode('  ada10 ')).toBe('ADA10');
    expect(normalizePromoCode('Summer-Sale')).toBe('SUMMER-SALE');
  });

  it('is null when blank', () => {
    expect(normalizePromoCode('')).toBeNull();
    expect(normalizePromoCode('   ')).toBeNull();
    expect(normalizePromoCode(null)).toBeNull();
    expect(normalizePromoCode(undefined)).toBeNull();
  });
});

describe('appPathOf', () => {
  it('follows a path of this app inside it, and leaves another origin to a page load', () => {
    expect(appPathOf('/checkout/sandbox/cs_1', 'https://prettyscore.app')).toBe('/checkout/sandbox/cs_1');
    expect(appPathOf('https://checkout.stripe.com/c/pay/cs_1', 'https://prettyscore.app')).toBeNull();
  });
});
