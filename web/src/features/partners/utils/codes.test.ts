import { describe, expect, it } from 'vitest';
import { isValidPromoCode, isValidShortCode, normalizeShortCode, referralLink, shortCodeToSend } from './codes';

describe('normalizeShortCode', () => {
  it('forces upper case and strips everything but letters and digits', () => {
    expect(normalizeShortCode('my-code 2!')).toBe('MYCODE2');
    expect(normalizeShortCode('  ada_l ')).toBe('ADAL');
    expect(normalizeShortCode('émile')).toBe('MILE');
  });

  it('keeps at most 10 characters', () => {
    expect(normalizeShortCode('abcdefghijklmnop')).toBe('ABCDEFGHIJ');
    expect(normalizeShortCode('a-b-c-d-e-f-g-h-i-j-k')).toBe('ABCDEFGHIJ');
  });

  it('is idempotent', () => {
    expect(normalizeShortCode(normalizeShortCode('x y-z 123'))).toBe('XYZ123');
  });
});

describe('isValidShortCode', () => {
  it('accepts a blank code (the server makes a random one)', () => {
    expect(isValidShortCode('')).toBe(true);
    expect(isValidShortCode('--')).toBe(true);
  });

  it('needs 3 to 10 letters or digits', () => {
    expect(isValidShortCode('AB')).toBe(false);
    expect(isValidShortCode('ABC')).toBe(true);
    expect(isValidShortCode('ABCDEFGHIJ')).toBe(true);
    expect(isValidShortCode('a-b')).toBe(false);
  });
});

describe('shortCodeToSend', () => {
  it('sends the normalised code, or null when blank', () => {
    expect(shortCodeToSend(' ada 1 ')).toBe('ADA1');
    expect(shortCodeToSend('')).toBeNull();
    expect(shortCodeToSend('!!')).toBeNull();
  });
});

describe('referralLink', () => {
  it('is {origin}/r/{code}', () => {
    expect(referralLink('https://prettyscore.app', 'ADA1')).toBe('https://prettyscore.app/r/ADA1');
    expect(referralLink('http://localhost:5173/', 'X9Z')).toBe('http://localhost:5173/r/X9Z');
  });
});

describe('isValidPromoCode', () => {
  it('accepts blank, or up to 20 letters, digits, - and _', () => {
    expect(isValidPromoCode('')).toBe(true);
    expect(isValidPromoCode(' ada-10_x ')).toBe(true);
    expect(isValidPromoCode('A'.repeat(20))).toBe(true);
    expect(isValidPromoCode('A'.repeat(21))).toBe(false);
    expect(isValidPromoCode('ADA 10')).toBe(false);
    expect(isValidPromoCode('ADA!')).toBe(false);
  });
});
