import { describe, expect, it } from 'vitest';
import { ageOn, dateOfBirthField, isAdult } from './age';

describe('the adult rule', () => {
  it('starts on the 18th birthday, a leap-day birthday on 1 March', () => {
    expect(isAdult('2008-12-08', '2026-12-07')).toBe(false);
    expect(isAdult('2008-12-08', '2026-12-08')).toBe(true);
    expect(isAdult('2008-02-29', '2026-02-28')).toBe(false);
    expect(isAdult('2008-02-29', '2026-03-01')).toBe(true);
    expect(ageOn('1990-05-17', '2026-12-08')).toBe(36);
  });

  it('takes only real past dates in the ISO form', () => {
    expect(dateOfBirthField.safeParse('1990-05-17').success).toBe(true);
    for (const bad of ['', '17/05/1990', '1990-02-30', '2999-01-01', '1899-12-31']) {
      expect(dateOfBirthField.safeParse(bad).success, bad).toBe(false);
    }
  });
});
