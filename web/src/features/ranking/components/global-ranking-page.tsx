import { CrownIcon, LoaderCircleIcon, TrophyIcon } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ReportButton } from '@/components/report/report-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { VerifiedBadge } from '@/components/verified-badge';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useStandings, useSubmitEntry } from '@/resources/contest/contest';
import { usePhotos, type Photo } from '@/resources/photos/photos';
import { timeLeft } from './time-left';

export const SELECT_PHOTO_MESSAGE = 'Please select a photo to submit';
export const SUBMIT_FAILED_MESSAGE = 'Failed to submit photo. Please try again.';
export const ATTESTATION_MESSAGE = 'Please confirm that you are 18 or older and that the photo is an original photo of yourself';
export const NO_PHOTOS_MESSAGE = 'Save a scored photo first to enter the contest.';

/** How an entry of this month stands, in the owner's words. */
const ENTRY_STATE: Record<string, { label: string; text: string; className: string }> = {
  pending: {
    label: 'Pending review',
    text: 'Submitted. An admin verifies every entry before it is ranked; it joins the standings once approved.',
    className: 'border-amber-200 bg-amber-50 text-amber-900',
  },
  approved: { label: 'In the ranking', text: 'Verified and ranked in this month’s standings.', className: 'border-emerald-200 bg-emerald-50 text-emerald-900' },
  rejected: { label: 'Not accepted', text: 'An admin did not accept this entry.', className: 'border-red-200 bg-red-50 text-red-900' },
  unlisted: { label: 'Unlisted', text: 'An admin took this entry off the leaderboard.', className: 'border-border bg-muted text-foreground' },
};

/** This month as the server names it (`YYYY-MM`, UTC), until the standings say. */
function currentMonth(): string {
  return new Date().toISOString().slice(0, 7);
}

/** How many of the user's photos the picker offers: their top 10 by score. */
const PICKER_SIZE = 10;

/** The Global Ranking contest page (signed-in users; the route sends visitors to /auth). */
export function GlobalRankingPage() {
  const navigate = useNavigate();
  const photos = usePhotos('rating');
  const top = (photos.data ?? []).slice(0, PICKER_SIZE);
  const [selected, setSelected] = useState<string | null>(null);
  const [displayName, setDisplayName] = useState('');
  const [adult, setAdult] = useState(false);
  const [original, setOriginal] = useState(false);
  const submit = useSubmitEntry();
  const standings = useStandings();
  const nameId = useId();
  // The server's answer to the last submission, shown at once (the photo list catches up after).
  const [entered, setEntered] = useState<Record<string, string>>({});

  // Nothing to enter yet: the upload page first, saying why.
  useEffect(() => {
    if (photos.data && photos.data.length === 0) {
      toast.info(NO_PHOTOS_MESSAGE, { id: 'global-ranking-no-photos' });
      void navigate(paths.upload.path, { replace: true });
    }
  }, [photos.data, navigate]);

  const month = standings.data?.month ?? currentMonth();
  // The user's entries of this month, each with where it stands.
  const myEntries: { photo: Photo; status: string }[] = [];
  for (const photo of photos.data ?? []) {
    const status = entered[photo.id] ?? (photo.contest_month === month ? photo.listing_status : null);
    if (status) myEntries.push({ photo, status });
  }

  const choose = (id: string) => {
    setSelected(id);
    const photo = top.find((p) => p.id === id);
    setDisplayName(photo?.display_name ?? '');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!selected) return void toast.error(SELECT_PHOTO_MESSAGE);
    if (!adult || !original) return void toast.error(ATTESTATION_MESSAGE);
    submit.mutate(
      {
        photo_id: selected,
        display_name: displayName.trim() ? displayName : undefined,
        attest_adult: adult,
        attest_original: original,
      },
      {
        onSuccess: (entry) => {
          toast.success(entry.message);
          setEntered((current) => ({ ...current, [entry.photo_id]: entry.listing_status }));
        },
        onError: (error) => toast.error(error instanceof ApiError && error.status === 422 ? error.message : SUBMIT_FAILED_MESSAGE),
      },
    );
  };

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 py-8 sm:px-6 sm:py-12">
      <header className="brand-gradient-strong rounded-3xl p-6 text-white shadow-md sm:p-10">
        <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide">
          <TrophyIcon aria-hidden="true" className="size-4" />
          Monthly contest
        </p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-5xl">Win $50,000</h1>
        <p className="mt-2 max-w-xl text-white/90">Prizes every month to the top 10. Enter one of your best photos and climb the global ranking.</p>
      </header>

      <section aria-labelledby="how-heading" className="grid gap-4 sm:grid-cols-3">
        <h2 id="how-heading" className="text-2xl font-bold sm:col-span-3">
          How it works
        </h2>
        {[
          ['1. Pick your photo', 'Choose one of your top 10 scored photos.'],
          ['2. Confirm and submit', 'Confirm you are 18 or older and the photo is an original of you.'],
          ['3. Get verified and ranked', 'Admins verify your entry; the top 10 of the month win prizes.'],
        ].map(([title, text]) => (
          <div key={title} className="rounded-3xl border bg-card p-5 shadow-sm">
            <h3 className="font-bold">{title}</h3>
            <p className="mt-1 text-sm text-muted-foreground">{text}</p>
          </div>
        ))}
      </section>

      {myEntries.length > 0 ? (
        <section aria-labelledby="my-entries-heading" className="flex flex-col gap-3 rounded-3xl border bg-card p-5 shadow-sm sm:p-8" data-testid="my-entries">
          <h2 id="my-entries-heading" className="text-2xl font-bold">
            Your entries this month
          </h2>
          <ul className="flex flex-col gap-3">
            {myEntries.map(({ photo, status }) => {
              const state = ENTRY_STATE[status] ?? ENTRY_STATE.pending!;
              return (
                <li key={photo.id} className="flex items-center gap-3" data-testid="my-entry" data-status={status}>
                  <img src={photo.edited_image_url ?? photo.original_image_url} alt="" className="size-14 shrink-0 rounded-xl object-cover" />
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 font-semibold">
                      {photo.score.toFixed(1)}/10
                      <span className={`rounded-full border px-2.5 py-0.5 text-xs font-semibold ${state.className}`}>{state.label}</span>
                    </p>
                    <p className="text-sm text-muted-foreground">
                      {state.text}
                      {status === 'rejected' && photo.rejection_reason ? ` Reason: ${photo.rejection_reason}` : null}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      <form onSubmit={onSubmit} className="flex flex-col gap-4 rounded-3xl border bg-card p-5 shadow-sm sm:p-8" aria-labelledby="pick-heading">
        <h2 id="pick-heading" className="text-2xl font-bold">
          Choose your photo
        </h2>
        {photos.isPending ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" /> Loading your photos...
          </p>
        ) : photos.isError ? (
          <p role="alert" className="text-destructive">
            Failed to load photos
          </p>
        ) : (
          <fieldset>
            <legend className="sr-only">Your top 10 photos by score</legend>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
              {top.map((photo) => (
                <label
                  key={photo.id}
                  className="relative cursor-pointer overflow-hidden rounded-2xl border-2 border-transparent has-checked:border-brand-600 has-focus-visible:ring-2 has-focus-visible:ring-ring"
                >
                  <input
                    type="radio"
                    name="photo"
                    value={photo.id}
                    checked={selected === photo.id}
                    onChange={() => choose(photo.id)}
                    className="sr-only"
                    aria-label={`Photo scored ${photo.score.toFixed(1)}/10, ${photo.rating_label}`}
                  />
                  <img src={photo.edited_image_url ?? photo.original_image_url} alt="" className="aspect-square w-full object-cover" />
                  <span className="absolute top-2 left-2 rounded-full bg-black/70 px-2 py-0.5 text-xs font-bold text-white">
                    {photo.score.toFixed(1)}/10
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <div className="flex max-w-sm flex-col gap-2">
          <Label htmlFor={nameId}>Display name</Label>
          <Input id={nameId} value={displayName} maxLength={50} onChange={(event) => setDisplayName(event.target.value)} placeholder="Shown on the leaderboard" />
        </div>
        <div className="flex flex-col gap-2 text-sm">
          <label className="flex items-start gap-2">
            <input type="checkbox" checked={adult} onChange={(event) => setAdult(event.target.checked)} className="mt-0.5 size-4" />I confirm that I am 18
            years or older.
          </label>
          <label className="flex items-start gap-2">
            <input type="checkbox" checked={original} onChange={(event) => setOriginal(event.target.checked)} className="mt-0.5 size-4" />I confirm that
            this is an original photo of myself.
          </label>
        </div>
        <div>
          <Button type="submit" disabled={submit.isPending}>
            {submit.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <CrownIcon aria-hidden="true" />}
            Submit to Global Ranking
          </Button>
        </div>
      </form>

      <section aria-labelledby="rules-heading" className="rounded-3xl border bg-card p-5 shadow-sm">
        <h2 id="rules-heading" className="text-2xl font-bold">
          Rules
        </h2>
        <ul className="mt-2 list-disc pl-5 text-sm">
          <li>Entrants must be 18 or older.</li>
          <li>Only original photos of yourself; no photos of other people, no AI-generated faces.</li>
          <li>Every entry is verified by an admin before it is ranked.</li>
          <li>The top 10 of each month win prizes; winners are fixed when the month ends.</li>
        </ul>
      </section>

      <Standings />
    </div>
  );
}

function Standings() {
  const standings = useStandings();
  return (
    <section aria-labelledby="standings-heading" className="rounded-3xl border bg-card p-5 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="standings-heading" className="text-2xl font-bold">
          This month's standings
        </h2>
        {standings.data ? (
          <p className="text-sm font-semibold text-brand-700" data-testid="time-left">
            {timeLeft(standings.data.seconds_left)}
          </p>
        ) : null}
      </div>
      {standings.isPending ? (
        <p role="status" className="mt-2 text-muted-foreground">
          Loading standings...
        </p>
      ) : standings.isError ? (
        <p role="alert" className="mt-2 text-destructive">
          Failed to load standings
        </p>
      ) : standings.data.entries.length === 0 ? (
        <p className="mt-2 text-muted-foreground">No verified entries this month yet. Be the first!</p>
      ) : (
        <ol className="mt-3 flex flex-col divide-y" aria-label="Standings">
          {standings.data.entries.map((entry) => (
            <li key={entry.photo_id} className="flex items-center gap-3 py-2">
              <span className="w-8 text-lg font-extrabold text-brand-700">#{entry.rank}</span>
              <img src={entry.image_url} alt="" className="size-10 rounded-xl object-cover" />
              <span className="flex-1 truncate font-semibold">
                {entry.display_name}
                {entry.owner_verified ? <VerifiedBadge variant="inline" className="ml-2 align-middle" /> : null}
                {entry.is_own ? <span className="ml-2 text-xs text-muted-foreground">(you)</span> : null}
              </span>
              <span className="font-bold">{entry.score.toFixed(1)}/10</span>
              {entry.is_own ? null : <ReportButton kind="contest_entry" id={entry.photo_id} what={`${entry.display_name}'s contest entry`} />}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
