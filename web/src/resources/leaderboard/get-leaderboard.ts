import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

/** One listed entry: rank, public image, name, bio, score, badge and the server's contact fee in dollars. */
export type LeaderboardEntry = ApiSchemas['LeaderboardEntry'];
export type LeaderboardPage = ApiSchemas['LeaderboardPage'];

export const LEADERBOARD_PAGE_SIZE = 20;

export const leaderboardKeys = {
  all: ['leaderboard'] as const,
  /** Per page cursor. Per viewer too (is_own differs): SessionProvider empties the cache when the viewer changes. */
  page: (after: string | null) => [...leaderboardKeys.all, 'page', after ?? 'first'] as const,
  /** One entry looked up for the signed-in viewer. */
  entry: (photoId: string | null) => [...leaderboardKeys.all, 'entry', photoId ?? ''] as const,
};

/** GET /api/v1/leaderboard?after=…: one keyset page, in the server's order with its ranks and fees. */
export function getLeaderboardPage(after: string | null): Promise<LeaderboardPage> {
  return unwrap(
    api.GET('/api/v1/leaderboard', {
      params: { query: { limit: LEADERBOARD_PAGE_SIZE, ...(after ? { after } : {}) } },
    }),
  );
}

export function useLeaderboardPage(after: string | null) {
  return useQuery(
    queryOptions({
      queryKey: leaderboardKeys.page(after),
      queryFn: () => getLeaderboardPage(after),
      placeholderData: keepPreviousData,
    }),
  );
}
