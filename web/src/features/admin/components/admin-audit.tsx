import { Button } from '@/components/ui/button';
import { useAdminAudit, type AdminAuditEntry } from '@/resources/admin/admin-audit';

/** `verification_request_approved` → 'Verification request approved'. */
export function actionLabel(action: string): string {
  const words = action.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '–';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What a decision was applied to (ids, reasons, notes), without before and after. */
function subject(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([key, value]) => key !== 'before' && key !== 'after' && value !== null && value !== undefined)
    .map(([key, value]) => `${key.replaceAll('_', ' ')}: ${show(value)}`)
    .join(' · ');
}

function Entry({ entry }: { entry: AdminAuditEntry }) {
  const details = (entry.details ?? {}) as Record<string, unknown>;
  const changed = 'before' in details || 'after' in details;
  return (
    <li className="grid gap-1 rounded-2xl border bg-card p-4 text-sm shadow-sm" data-testid="audit-entry">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">{actionLabel(entry.action)}</p>
        <time dateTime={entry.createdAt} className="text-muted-foreground">
          {new Date(entry.createdAt).toLocaleString()}
        </time>
      </div>
      <p className="text-muted-foreground">
        by {entry.adminEmail || entry.adminId || 'an administrator'} from {entry.ipAddress}
      </p>
      {subject(details) ? <p className="break-all">{subject(details)}</p> : null}
      {changed ? (
        <p>
          <span className="font-medium">{show(details.before)}</span> → <span className="font-medium">{show(details.after)}</span>
        </p>
      ) : null}
    </li>
  );
}

/** /admin/audit: every decision on the admin pages, newest first. */
export function AdminAudit() {
  const audit = useAdminAudit();
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <h1 className="text-3xl font-extrabold tracking-tight">Admin Audit Log</h1>
      {audit.isPending ? (
        <p role="status">Loading the audit log...</p>
      ) : audit.isError ? (
        <p role="alert" className="text-destructive">
          Failed to load the audit log
        </p>
      ) : entries.length === 0 ? (
        <p className="text-muted-foreground">No admin decisions yet.</p>
      ) : (
        <>
          <ul className="flex flex-col gap-3" aria-label="Decisions">
            {entries.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ul>
          {audit.hasNextPage ? (
            <div>
              <Button variant="outline" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
                {audit.isFetchingNextPage ? 'Loading...' : 'Load Older'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
