import { TrophyIcon } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { PageTitle } from '@/components/layout/page-title';
import { paths, signInPathFor } from '@/config/paths';
import type { LeaderboardEntry } from '@/features/leaderboard/api/get-leaderboard';
import { SIGN_IN_TO_CONTACT_MESSAGE } from '@/features/leaderboard/components/leaderboard-entry-card';
import { LeaderboardList } from '@/features/leaderboard/components/leaderboard-list';
import { ReportEntryButton } from '@/features/leaderboard/components/report-entry-button';
import { useSession } from '@/lib/session';

type LeaderboardRouteProps = {
  /**
   * What Contact does for a signed-in user: the contact feature's dialog
   * (message, then checkout) plugs in here. Visitors are sent to sign in.
   */
  onContact?: (entry: LeaderboardEntry) => void;
};

/** Global Leaderboard: listed entries in the server's order, with ranks and contact fees. */
export default function LeaderboardRoute({ onContact }: LeaderboardRouteProps) {
  const { session } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const backHere = `${location.pathname}${location.search}`;

  const signInFirst = (message: string) => {
    toast.error(message);
    void navigate(signInPathFor(backHere));
  };

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.leaderboard.title} />
      <header className="mb-6 flex items-center gap-3">
        <TrophyIcon aria-hidden="true" className="size-8 text-brand-600" />
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{paths.leaderboard.title}</h1>
          <p className="text-sm text-muted-foreground">The highest scores first; on a tie, the earlier entry. Every entry is checked by an admin.</p>
        </div>
      </header>
      <LeaderboardList
        onContact={(entry) => {
          if (!session) return signInFirst(SIGN_IN_TO_CONTACT_MESSAGE);
          onContact?.(entry);
        }}
        renderActions={(entry) =>
          entry.is_own ? null : (
            <ReportEntryButton entry={entry} onSignInNeeded={session ? undefined : () => signInFirst('Please sign in to report an entry')} />
          )
        }
      />
    </div>
  );
}
