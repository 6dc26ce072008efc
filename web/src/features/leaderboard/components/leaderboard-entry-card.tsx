import { ClockIcon, MailIcon, MessageCircleIcon, StarIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { VerifiedBadge } from '@/components/verified-badge';
import { messagesPathFor } from '@/config/paths';
import type { EntryContactOf } from '@/resources/contact-requests/contact-requests';
import type { LeaderboardEntry } from '@/resources/leaderboard/get-leaderboard';

export const SIGN_IN_TO_CONTACT_MESSAGE = 'Please sign in to contact contestants';

type LeaderboardEntryCardProps = {
  entry: LeaderboardEntry;
  /**
   * The Contact button's action (the contact feature's dialog, or the sign-in
   * redirect for a visitor). Not used for the viewer's own entry: nobody
   * contacts themselves.
   */
  onContact: (entry: LeaderboardEntry) => void;
  /**
   * What Contact does for the signed-in viewer, as the server says: a chat
   * already open reads "Open chat" and goes there; a paid request waiting
   * for an answer says so (its dialog explains). Unknown (a visitor, or not
   * loaded yet): Contact with its price.
   */
  contact?: Pick<EntryContactOf, 'state' | 'requestId'>;
  /** More actions under the card (e.g. Report). */
  actions?: ReactNode;
};

export function formatFee(dollars: number): string {
  return `$${dollars.toLocaleString('en-US')}`;
}

/**
 * A button's accessible name: its visible words, then the entry's name. It
 * starts with what the button shows (WCAG 2.5.3, axe's
 * label-content-name-mismatch: a voice user says what they see) and still
 * tells the entries' buttons apart.
 */
export function entryActionLabel(visible: string, entry: Pick<LeaderboardEntry, 'display_name'>): string {
  return `${visible}, ${entry.display_name}`;
}

/** The action the entry offers the viewer: Contact with its price, the open chat, or the waiting request. */
function ContactAction({ entry, contact, onContact }: Pick<LeaderboardEntryCardProps, 'entry' | 'contact' | 'onContact'>) {
  const fee = formatFee(entry.contact_fee);
  if (contact?.state === 'chatting' && contact.requestId) {
    return (
      <Button asChild size="sm" data-testid="entry-open-chat">
        <Link to={messagesPathFor(contact.requestId)} aria-label={entryActionLabel('Open chat', entry)}>
          <MessageCircleIcon aria-hidden="true" />
          Open chat
        </Link>
      </Button>
    );
  }
  if (contact?.state === 'waiting') {
    return (
      <Button size="sm" variant="outline" onClick={() => onContact(entry)} aria-label={entryActionLabel('Request waiting', entry)}>
        <ClockIcon aria-hidden="true" />
        Request waiting
      </Button>
    );
  }
  return (
    <Button size="sm" onClick={() => onContact(entry)} aria-label={entryActionLabel(`Contact · ${fee}`, entry)}>
      <MailIcon aria-hidden="true" />
      Contact · {fee}
    </Button>
  );
}

/** One ranked entry: rank, photo, name with badge, bio, score and label, and Contact with its price. */
export function LeaderboardEntryCard({ entry, onContact, contact, actions }: LeaderboardEntryCardProps) {
  return (
    <li className="flex gap-4 rounded-3xl border bg-card p-4 shadow-sm" data-testid="leaderboard-entry">
      <div className="flex w-10 shrink-0 flex-col items-center pt-1">
        <span className="text-2xl font-extrabold text-brand-700" aria-label={`Rank ${entry.rank}`} data-testid="entry-rank">
          #{entry.rank}
        </span>
      </div>
      <img
        src={entry.image_url}
        alt={`${entry.display_name}'s photo`}
        loading="lazy"
        className="size-20 shrink-0 rounded-2xl object-cover sm:size-28"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="truncate text-lg font-bold">{entry.display_name}</h2>
          {entry.owner_verified ? <VerifiedBadge variant="inline" /> : null}
          {entry.featured ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
              <StarIcon aria-hidden="true" className="size-3" />
              Featured
            </span>
          ) : null}
        </div>
        {entry.bio ? <p className="line-clamp-2 text-sm text-muted-foreground">{entry.bio}</p> : null}
        <p className="text-sm">
          <span className="font-extrabold text-brand-700" data-testid="entry-score">
            {entry.score.toFixed(1)}/10
          </span>{' '}
          <span className="font-semibold">{entry.rating_label}</span>
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {entry.is_own ? (
            <span className="text-sm font-semibold text-muted-foreground">Your entry</span>
          ) : (
            <ContactAction entry={entry} contact={contact} onContact={onContact} />
          )}
          {actions}
        </div>
      </div>
    </li>
  );
}
