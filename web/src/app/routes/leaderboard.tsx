import { TrophyIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PageTitle } from '@/components/layout/page-title';
import { paths, signInPathFor } from '@/config/paths';
import { ContactDialog } from '@/features/contact/components/contact-dialog';
import type { ContactTarget } from '@/features/contact/hooks/use-contact-checkout';
import { checkoutReturn, messages as contactMessages } from '@/features/contact/utils/rules';
import type { LeaderboardEntry } from '@/features/leaderboard/api/get-leaderboard';
import { SIGN_IN_TO_CONTACT_MESSAGE } from '@/features/leaderboard/components/leaderboard-entry-card';
import { LeaderboardList } from '@/features/leaderboard/components/leaderboard-list';
import { ReportEntryButton } from '@/features/leaderboard/components/report-entry-button';
import { useSession } from '@/lib/session';

/** A leaderboard entry as the contact dialog needs it. */
function contactTargetOf(entry: LeaderboardEntry): ContactTarget {
  return { photoId: entry.photo_id, name: entry.display_name, rank: entry.rank, feeDollars: entry.contact_fee };
}

/**
 * Global Leaderboard: listed entries in the server's order, with ranks and
 * contact fees. Contact opens the contact feature's dialog (message, then
 * checkout) for a signed-in user; visitors are sent to sign in. The
 * checkout comes back here with ?contact=success or ?contact=canceled.
 */
export default function LeaderboardRoute() {
  const { session } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const [target, setTarget] = useState<ContactTarget | null>(null);
  const backHere = `${location.pathname}${location.search}`;
  const returned = checkoutReturn(search);

  useEffect(() => {
    if (!returned) return;
    if (returned === 'success') toast.success(contactMessages.sent, { id: 'contact-checkout-return' });
    else toast.info(contactMessages.canceled, { id: 'contact-checkout-return' });
    // Said once: a reload or going back does not say it again.
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('contact');
        return next;
      },
      { replace: true },
    );
  }, [returned, setSearch]);

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
          if (entry.is_own) return;
          setTarget(contactTargetOf(entry));
        }}
        renderActions={(entry) =>
          entry.is_own ? null : (
            <ReportEntryButton entry={entry} onSignInNeeded={session ? undefined : () => signInFirst('Please sign in to report an entry')} />
          )
        }
      />
      <ContactDialog target={session ? target : null} onClose={() => setTarget(null)} />
    </div>
  );
}
