import { ChevronLeftIcon, ChevronRightIcon, LoaderCircleIcon, TrophyIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useEntryContacts } from '@/resources/contact-requests/contact-requests';
import { useLeaderboardPage, type LeaderboardEntry } from '@/resources/leaderboard/get-leaderboard';
import { LeaderboardEntryCard } from './leaderboard-entry-card';

export const LOAD_FAILED_MESSAGE = 'Failed to load leaderboard';

type LeaderboardListProps = {
  onContact: (entry: LeaderboardEntry) => void;
  /** Extra actions per entry (Report). */
  renderActions?: (entry: LeaderboardEntry) => ReactNode;
};

/**
 * The public leaderboard in keyset pages: the server's cursor leads to the
 * next page; the cursors seen so far lead back.
 */
export function LeaderboardList({ onContact, renderActions }: LeaderboardListProps) {
  // cursors[i] is the `after` of page i+1; the first page has none.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const page = useLeaderboardPage(after);
  const pageNumber = cursors.length;
  // The viewer's chats and waiting requests with this page's contestants.
  const contacts = useEntryContacts(page.data?.entries.map((entry) => entry.photo_id) ?? []);

  if (page.isPending) {
    return (
      <p className="flex items-center justify-center gap-2 py-16 text-muted-foreground" role="status">
        <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin" />
        Loading leaderboard...
      </p>
    );
  }
  if (page.isError) {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-center" role="alert">
        <p className="font-semibold text-destructive">{LOAD_FAILED_MESSAGE}</p>
        <Button variant="outline" onClick={() => void page.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const entries = page.data.entries;
  if (entries.length === 0 && pageNumber === 1) {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-center">
        <TrophyIcon aria-hidden="true" className="size-10 text-brand-500" />
        <p className="font-semibold">No one is on the leaderboard yet.</p>
        <p className="text-sm text-muted-foreground">Score 9.5 or more, or enter the Global Ranking, to be the first.</p>
        <Button asChild>
          <Link to={paths.upload.path}>Get your score</Link>
        </Button>
      </div>
    );
  }
  const next = page.data.next_cursor ?? null;
  return (
    <div className="flex flex-col gap-4">
      <ol className="flex flex-col gap-3" aria-label="Leaderboard entries" aria-busy={page.isFetching}>
        {entries.map((entry) => (
          <LeaderboardEntryCard
            key={entry.photo_id}
            entry={entry}
            onContact={onContact}
            contact={contacts.data?.get(entry.photo_id)}
            actions={renderActions?.(entry)}
          />
        ))}
      </ol>
      <nav className="flex items-center justify-between gap-2" aria-label="Leaderboard pages">
        <Button variant="outline" disabled={pageNumber === 1} onClick={() => setCursors((list) => list.slice(0, -1))}>
          <ChevronLeftIcon aria-hidden="true" />
          Previous
        </Button>
        <span className="text-sm text-muted-foreground">Page {pageNumber}</span>
        <Button variant="outline" disabled={!next || page.isPlaceholderData} onClick={() => next && setCursors((list) => [...list, next])}>
          Next
          <ChevronRightIcon aria-hidden="true" />
        </Button>
      </nav>
    </div>
  );
}
