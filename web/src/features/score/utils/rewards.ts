import { toTenths } from './rating';

/**
 * The results screen's reward banners. The spec compares against 95 and 99
 * while scores run from 1 to 10; we read the comparison on the 100-point
 * scale (score x 10, rounded to a whole number so 9.9 * 10 = 99.00000000000001
 * still counts as 99).
 */
export type RewardBanner = 'world-record' | 'elite' | 'exceptional';

export function rewardBanner(score: number): RewardBanner | null {
  const points = toTenths(score);
  if (points >= 100) return 'world-record';
  if (points === 99) return 'elite';
  if (points >= 95) return 'exceptional';
  return null;
}

/** A score of 9.5 or more opens the leaderboard entry dialog. */
export function opensLeaderboardDialog(score: number): boolean {
  return toTenths(score) >= 95;
}
