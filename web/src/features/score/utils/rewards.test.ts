import { describe, expect, it } from 'vitest';
import { showsConfetti } from '@/components/confetti';
import { opensLeaderboardDialog, rewardBanner } from './rewards';

describe('rewardBanner (read on the 100-point scale)', () => {
  it.each([
    [10, 'world-record'],
    [9.9, 'elite'],
    [9.8, 'exceptional'],
    [9.5, 'exceptional'],
    [9.4, null],
    [8, null],
    [1, null],
  ])('shows %s → %s', (score, banner) => {
    expect(rewardBanner(score)).toBe(banner);
  });

  it('treats a 9.9 carrying float noise as exactly 99', () => {
    const noisy = 9.95 - 0.05; // 9.899999999999999, so score * 10 = 98.99999999999999
    expect(noisy * 10).not.toBe(99);
    expect(rewardBanner(noisy)).toBe('elite');
    expect(rewardBanner(0.99 * 10)).toBe('elite');
    expect(rewardBanner(9.9 + 1e-12)).toBe('elite');
  });

  it('treats 9.5 computed with float noise as 95', () => {
    expect(rewardBanner(9.549999999999999 - 0.05)).toBe('exceptional');
    expect(rewardBanner(9.45 + 0.05)).toBe('exceptional');
  });

  it('treats 10 computed with float noise as a perfect 10', () => {
    expect(rewardBanner(0.1 * 3 * (100 / 3))).toBe('world-record');
  });
});

describe('leaderboard dialog and confetti thresholds', () => {
  it.each([
    [10, true],
    [9.5, true],
    [9.4, false],
    [7, false],
  ])('opens the leaderboard dialog at %s: %s', (score, opens) => {
    expect(opensLeaderboardDialog(score)).toBe(opens);
  });

  it.each([
    [10, true],
    [8.5, true],
    [8.4, false],
    [0.85 * 10, true],
  ])('shows confetti at %s: %s', (score, shows) => {
    expect(showsConfetti(score)).toBe(shows);
  });
});
