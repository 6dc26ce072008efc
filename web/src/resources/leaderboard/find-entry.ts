import { useQuery } from '@tanstack/react-query';
import { useSession } from '@/lib/session';
import { getLeaderboardPage, leaderboardKeys, type LeaderboardEntry } from './get-leaderboard';

/** How many pages are read looking for one entry (20 each) before giving up. */
export const FIND_ENTRY_MAX_PAGES = 25;

/**
 * One listed entry, by its photo id, as the server lists it now (rank, name
 * and fee): the leaderboard is read page by page from the top until it is
 * found. Resolves to null when it is no longer listed.
 */
export async function findLeaderboardEntry(photoId: string): Promise<LeaderboardEntry | null> {
  let after: string | null = null;
  for (let page = 0; page < FIND_ENTRY_MAX_PAGES; page += 1) {
    const { entries, next_cursor: next } = await getLeaderboardPage(after);
    const found = entries.find((entry) => entry.photo_id === photoId);
    if (found) return found;
    if (!next) return null;
    after = next;
  }
  return null;
}

/** The entry with `photoId` (when given), for the signed-in viewer (is_own differs per viewer). */
export function useLeaderboardEntry(photoId: string | null) {
  const { session } = useSession();
  return useQuery({
    queryKey: leaderboardKeys.entry(photoId),
    queryFn: () => findLeaderboardEntry(photoId!),
    enabled: Boolean(photoId) && session !== null,
    staleTime: 0,
  });
}
