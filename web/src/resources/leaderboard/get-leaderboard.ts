import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/** One listed entry: rank, public image, name, bio, score, badge and the server's contact fee in dollars. */
export type LeaderboardEntry = ApiSchemas['LeaderboardEntry'];
export type LeaderboardPage = ApiSchemas['LeaderboardPage'];

export const LEADERBOARD_PAGE_SIZE = 20;

export const leaderboardKeys = {
  all: ['leaderboard'] as const,
  /** Per viewer (is_own differs) and per page cursor. */
  page: (userId: string | null, after: string | null) => [...leaderboardKeys.all, 'page', userId ?? 'anonymous', after ?? 'first'] as const,
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
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: leaderboardKeys.page(session?.user.id ?? null, after),
      queryFn: () => getLeaderboardPage(after),
      placeholderData: keepPreviousData,
    }),
  );
}
