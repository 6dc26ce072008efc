import { TrophyIcon } from 'lucide-react';
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths, signInPathFor } from '@/config/paths';
import { ContactDialog } from '@/features/contact/components/contact-dialog';
import type { ContactTarget } from '@/features/contact/hooks/use-contact-checkout';
import { checkoutReturn, messages as contactMessages } from '@/features/contact/utils/rules';
import { SIGN_IN_TO_CONTACT_MESSAGE } from '@/features/leaderboard/components/leaderboard-entry-card';
import { LeaderboardList } from '@/features/leaderboard/components/leaderboard-list';
import { ReportButton } from '@/components/report/report-button';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { getCheckoutOutcome } from '@/resources/billing/billing';
import { useLeaderboardEntry } from '@/resources/leaderboard/find-entry';
import type { LeaderboardEntry } from '@/resources/leaderboard/get-leaderboard';

/** A leaderboard entry as the contact dialog needs it. */
function contactTargetOf(entry: LeaderboardEntry): ContactTarget {
  return { photoId: entry.photo_id, name: entry.display_name, rank: entry.rank, feeDollars: entry.contact_fee };
}

/** The query parameter that names the entry whose Contact dialog opens once signed in. */
export const CONTACT_ENTRY_PARAM = 'contactEntry';

export const ENTRY_GONE_MESSAGE = 'This entry is no longer on the leaderboard.';

/** The checkout's session id, which the payment provider puts in the return address. */
const CHECKOUT_PARAM = 'checkout';

/** When this payment was a second one for a request paid already (the server's words, if it gave none). */
export const GIVEN_BACK_MESSAGE =
  'This request was paid for already, in another tab or window. The hold this payment placed on your card was released at once: you are charged only once.';

/**
 * What the return from a paid checkout says: sent, or, when another payment
 * for the same request already held the money, that this one was released
 * at once. If the server cannot say yet, the request was sent either way.
 */
async function sayCheckoutOutcome(sessionId: string) {
  try {
    const outcome = await getCheckoutOutcome(sessionId);
    if (outcome.givenBack) {
      toast.warning(outcome.message ?? GIVEN_BACK_MESSAGE, { id: 'contact-checkout-return', duration: 15_000 });
      return;
    }
  } catch {
    // Said as sent: the request is paid whichever payment counts.
  }
  toast.success(contactMessages.sent, { id: 'contact-checkout-return' });
}

/**
 * Global Leaderboard: listed entries in the server's order, with ranks and
 * contact fees. Contact opens the contact feature's dialog (message, then
 * checkout) for a signed-in user; visitors are sent to sign in, which comes
 * back here with ?contactEntry={photo id}, and that entry's dialog opens.
 * The checkout comes back here with ?contact=success (and the session's id
 * as ?checkout=) or ?contact=canceled.
 */
export default function LeaderboardRoute() {
  const { session, status } = useSession();
  const sessionKnown = status !== 'loading';
  const navigate = useNavigate();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const [target, setTarget] = useState<ContactTarget | null>(null);
  const backHere = `${location.pathname}${location.search}`;
  const returned = checkoutReturn(search);
  const returnedCheckout = search.get(CHECKOUT_PARAM);

  useEffect(() => {
    if (!returned) return;
    if (returned === 'success' && returnedCheckout) void sayCheckoutOutcome(returnedCheckout);
    else if (returned === 'success') toast.success(contactMessages.sent, { id: 'contact-checkout-return' });
    else toast.info(contactMessages.canceled, { id: 'contact-checkout-return' });
    // Said once: a reload or going back does not say it again.
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('contact');
        next.delete(CHECKOUT_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [returned, returnedCheckout, setSearch]);

  const signInFirst = (message: string, returnTo = backHere) => {
    toast.error(message);
    void navigate(signInPathFor(returnTo));
  };

  /** This page with ?contactEntry= set, for the way back from signing in. */
  const backToContact = (entry: LeaderboardEntry) => {
    const next = new URLSearchParams(location.search);
    next.set(CONTACT_ENTRY_PARAM, entry.photo_id);
    return `${location.pathname}?${next.toString()}`;
  };

  // Back from signing in: the entry, as the server lists it now, with its
  // dialog open; the parameter goes once the dialog closes, so a reload after
  // that does not open it again.
  const contactEntryId = search.get(CONTACT_ENTRY_PARAM);
  const wanted = useLeaderboardEntry(session ? contactEntryId : null);
  const returnTarget = contactEntryId && wanted.data && !wanted.data.is_own ? contactTargetOf(wanted.data) : null;
  const dropContactEntry = useCallback(
    () =>
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(CONTACT_ENTRY_PARAM);
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  const entryGone = Boolean(contactEntryId) && (wanted.data === null || wanted.isError);
  const ownEntry = Boolean(contactEntryId) && Boolean(wanted.data?.is_own);
  useEffect(() => {
    if (entryGone) toast.error(ENTRY_GONE_MESSAGE, { id: 'contact-entry-gone' });
    if (entryGone || ownEntry) dropContactEntry();
  }, [entryGone, ownEntry, dropContactEntry]);

  const contact = (entry: LeaderboardEntry) => {
    if (!session) return signInFirst(SIGN_IN_TO_CONTACT_MESSAGE, backToContact(entry));
    if (entry.is_own) return;
    setTarget(contactTargetOf(entry));
  };
  // A Contact click before the stored session has been read is acted on once
  // it has: at once, it sent a signed-in member to sign in, as if signed out.
  const contactOnceKnown = useRef<LeaderboardEntry | null>(null);
  const contactNow = useEffectEvent(contact);
  useEffect(() => {
    const entry = contactOnceKnown.current;
    if (!sessionKnown || !entry) return;
    contactOnceKnown.current = null;
    contactNow(entry);
  }, [sessionKnown]);

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
        onContact={(entry) => (sessionKnown ? contact(entry) : (contactOnceKnown.current = entry))}
        renderActions={(entry) =>
          entry.is_own ? null : (
            // Signed out too: a visitor reports with an address and a good-faith statement (DSA Art. 16).
            <ReportButton kind="photo" id={entry.photo_id} what={`${entry.display_name}'s entry`} />
          )
        }
      />
      <ContactDialog
        target={session ? (target ?? returnTarget) : null}
        onClose={() => {
          setTarget(null);
          if (contactEntryId) dropContactEntry();
        }}
      />
    </div>
  );
}
