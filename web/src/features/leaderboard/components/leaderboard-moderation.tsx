import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useModerate, useModerationEntries, type EntryStatus, type ModerationAction, type ModerationEntry } from '@/resources/leaderboard/leaderboard-moderation';

const TABS: { status: EntryStatus; label: string }[] = [
  { status: 'pending', label: 'Pending' },
  { status: 'approved', label: 'Listed' },
  { status: 'rejected', label: 'Rejected' },
  { status: 'unlisted', label: 'Unlisted' },
  { status: 'held', label: 'Held by screening' },
];

const DONE: Record<ModerationAction['kind'], string> = {
  approve: 'Entry approved',
  release: 'Photo released',
  reject: 'Entry rejected',
  unlist: 'Entry unlisted',
  feature: 'Entry updated',
};

function useRun() {
  const moderate = useModerate();
  const options = (action: ModerationAction) => ({
    onSuccess: () => toast.success(DONE[action.kind]),
    onError: (error: unknown) => toast.error(error instanceof ApiError ? error.message : 'Failed to update entry'),
  });
  const run = (action: ModerationAction) => moderate.mutate(action, options(action));
  /** For a confirmation dialog: settles once the server has answered. */
  const runAsync = (action: ModerationAction) => moderate.mutateAsync(action, options(action));
  return { run, runAsync, busy: moderate.isPending };
}

/**
 * Leaderboard moderation: pending entries to approve or reject, listed ones
 * to feature or unlist, and reports of entries. `children` come after them on
 * the page: the route puts the contact feature's reported requesters there
 * (features never import each other).
 */
export function LeaderboardModeration({ children }: { children?: ReactNode }) {
  const [status, setStatus] = useState<EntryStatus>('pending');
  const entries = useModerationEntries(status);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <h1 className="text-3xl font-extrabold tracking-tight">Leaderboard Moderation</h1>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Entries by state">
        {TABS.map((tab) => (
          <Button key={tab.status} variant={tab.status === status ? 'default' : 'outline'} aria-pressed={tab.status === status} onClick={() => setStatus(tab.status)}>
            {tab.label}
          </Button>
        ))}
      </div>
      {entries.isPending ? (
        <p role="status">Loading entries...</p>
      ) : entries.isError ? (
        <p role="alert" className="text-destructive">
          Failed to load entries
        </p>
      ) : entries.data.length === 0 ? (
        <p className="text-muted-foreground">No entries here.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Entries">
          {entries.data.map((entry) => (
            <ModerationCard key={entry.photo_id} entry={entry} />
          ))}
        </ul>
      )}
      <Reports />
      {children}
    </div>
  );
}

function ModerationCard({ entry }: { entry: ModerationEntry }) {
  const { run, runAsync, busy } = useRun();
  const name = entry.display_name ?? 'this entry';
  const [reason, setReason] = useState('');
  const reasonId = useId();
  return (
    <li className="flex flex-col gap-3 rounded-3xl border bg-card p-4 shadow-sm sm:flex-row" data-testid="moderation-entry">
      <img src={entry.image_url} alt={`Entry of ${entry.display_name ?? 'a user'}`} className="size-32 shrink-0 rounded-2xl object-cover" />
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <p className="text-base font-bold">
          {entry.display_name ?? '(no name)'} · {entry.score.toFixed(1)}/10 {entry.rating_label}
        </p>
        {entry.status === '' ? <p className="text-muted-foreground">Shared result (not a leaderboard entry)</p> : null}
        <p>Owner: {entry.owner_email ?? entry.owner_id}</p>
        {entry.bio ? <p className="text-muted-foreground">{entry.bio}</p> : null}
        {entry.contest_month ? (
          <p>
            Contest {entry.contest_month}; 18+ {entry.attested_adult ? 'confirmed' : 'not confirmed'}, original {entry.attested_original ? 'confirmed' : 'not confirmed'}
          </p>
        ) : null}
        {entry.open_reports > 0 ? <p className="font-semibold text-destructive">{entry.open_reports} open report(s)</p> : null}
        {entry.rejection_reason ? <p>Reason: {entry.rejection_reason}</p> : null}
        {entry.screening ? <ScreeningScores screening={entry.screening} /> : null}
        <div className="mt-2 flex flex-wrap items-end gap-2">
          {entry.screening?.held ? (
            <ConfirmButton
              disabled={busy}
              title={`Release ${name}?`}
              description={
                entry.status === 'pending'
                  ? 'The photo is no longer held by the nudity check. The entry still waits for your approval to be listed.'
                  : 'The photo is no longer held by the nudity check: its share page and card become public at once.'
              }
              confirmLabel="Release"
              pendingLabel="Releasing..."
              onConfirm={() => runAsync({ kind: 'release', id: entry.photo_id })}
            >
              Release
            </ConfirmButton>
          ) : null}
          {entry.status !== 'approved' && entry.status !== '' ? (
            <Button size="sm" disabled={busy} onClick={() => run({ kind: 'approve', id: entry.photo_id })}>
              Approve
            </Button>
          ) : null}
          {entry.status === 'pending' ? (
            <>
              <div className="flex flex-col gap-1">
                <label htmlFor={reasonId} className="text-xs font-semibold">
                  Reason for rejection (shown to the owner)
                </label>
                <Input id={reasonId} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} className="h-9 w-64" />
              </div>
              <ConfirmButton
                disabled={busy || !reason.trim()}
                title={`Reject ${name}?`}
                description={`The entry stays off the public leaderboard, and its owner sees it rejected with your reason: “${reason.trim()}”.`}
                confirmLabel="Reject"
                pendingLabel="Rejecting..."
                onConfirm={() => runAsync({ kind: 'reject', id: entry.photo_id, reason })}
              >
                Reject
              </ConfirmButton>
            </>
          ) : null}
          {entry.status === 'approved' ? (
            <>
              <Button size="sm" variant="outline" disabled={busy} onClick={() => run({ kind: 'feature', id: entry.photo_id, featured: !entry.featured })}>
                {entry.featured ? 'Unfeature' : 'Feature'}
              </Button>
              <ConfirmButton
                disabled={busy}
                title={`Unlist ${name}?`}
                description="The entry leaves the public leaderboard at once and nobody can contact its owner through it. You can approve it again from the Unlisted tab."
                confirmLabel="Unlist"
                pendingLabel="Unlisting..."
                onConfirm={() => runAsync({ kind: 'unlist', id: entry.photo_id })}
              >
                Unlist
              </ConfirmButton>
            </>
          ) : null}
        </div>
      </div>
    </li>
  );
}

const CLASSES = [
  ['neutral', 'Neutral'],
  ['drawing', 'Drawing'],
  ['sexy', 'Sexy'],
  ['porn', 'Porn'],
  ['hentai', 'Hentai'],
] as const;

/** The nudity check's five scores beside the image, and whether it holds the photo. */
function ScreeningScores({ screening }: { screening: NonNullable<ModerationEntry['screening']> }) {
  const percent = (value: number) => `${Math.round(value * 100)}%`;
  return (
    <div className="mt-1 flex flex-col gap-1" data-testid="screening-scores">
      <p className={screening.flagged ? 'font-semibold text-destructive' : 'text-muted-foreground'}>
        Screening: {screening.flagged ? 'flagged' : 'passed'}
        {screening.held ? ', held for review' : ''} (unsafe {percent(screening.unsafe_share)})
      </p>
      <dl className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
        {CLASSES.map(([key, label]) => (
          <div key={key} className="flex gap-1">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="font-semibold tabular-nums">{percent(screening.scores[key])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Reports of entries are answered in the one queue (/admin/reports), with every other report. */
function Reports() {
  return (
    <section aria-labelledby="reports-heading" className="flex flex-col gap-3">
      <h2 id="reports-heading" className="text-2xl font-bold">
        Reports
      </h2>
      <p>
        Reports of entries, shared pages, chats and users are answered in one queue, urgent ones first:{' '}
        <Link to={paths.adminReports.path} className="font-semibold underline">
          open the reports
        </Link>
        .
      </p>
    </section>
  );
}
