import { CheckIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { formatDate } from '@/resources/billing/billing';
import { useContactReports, useResolveContactReport, type ContactReport } from '@/resources/contact-requests/contact-reports';

export const CONTACT_REPORT_RESOLVED_MESSAGE = 'Report marked resolved';
export const CONTACT_REPORT_RESOLVE_FAILED_MESSAGE = 'Failed to resolve report';

/** Reported requesters: who, their address, the contestant's reason and the request's message; open ones first. */
export function ContactReports() {
  const reports = useContactReports();
  return (
    <section aria-labelledby="contact-reports-heading" className="flex flex-col gap-3">
      <h2 id="contact-reports-heading" className="text-2xl font-bold">
        Reported requesters
      </h2>
      <p className="text-sm text-muted-foreground">
        Contestants who report a requester have blocked them already. Check the reason and the message, then mark the report resolved.
      </p>
      {reports.isPending ? (
        <p role="status">Loading reported requesters...</p>
      ) : reports.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3">
          <p className="text-destructive">Failed to load reported requesters</p>
          <Button variant="outline" size="sm" onClick={() => void reports.refetch()}>
            Try again
          </Button>
        </div>
      ) : reports.data.length === 0 ? (
        <p className="text-muted-foreground">No reported requesters</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Reported requesters">
          {reports.data.map((report) => (
            <ContactReportCard key={report.id} report={report} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ContactReportCard({ report }: { report: ContactReport }) {
  const resolve = useResolveContactReport();
  const nameId = useId();
  const open = report.status === 'open';

  const markResolved = () =>
    resolve.mutate(report.id, {
      onSuccess: () => toast.success(CONTACT_REPORT_RESOLVED_MESSAGE),
      onError: (error) => toast.error(error instanceof ApiError && error.code !== 'http_error' ? error.message : CONTACT_REPORT_RESOLVE_FAILED_MESSAGE),
    });

  return (
    <li className="grid gap-3 rounded-2xl border bg-card p-4 text-sm shadow-sm" data-testid="contact-report">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={nameId} className="text-base font-bold break-words">
          {report.reportedName}
        </h3>
        <span
          className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold', open ? 'bg-amber-100 text-amber-950' : 'bg-muted text-foreground')}
          data-testid="contact-report-status"
        >
          {open ? 'Open' : 'Resolved'}
        </span>
      </div>
      <dl className="grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-4">
        <dt className="text-xs font-semibold text-muted-foreground sm:text-sm">Email</dt>
        <dd className="break-all">{report.reportedEmail ?? 'No email address'}</dd>
        <dt className="text-xs font-semibold text-muted-foreground sm:text-sm">Reported</dt>
        <dd>{formatDate(report.createdAt)}</dd>
        <dt className="text-xs font-semibold text-muted-foreground sm:text-sm">Reason</dt>
        <dd className="break-words whitespace-pre-line" data-testid="contact-report-reason">
          {report.reason}
        </dd>
        <dt className="text-xs font-semibold text-muted-foreground sm:text-sm">Their message</dt>
        <dd>
          <blockquote className="rounded-xl bg-muted px-3 py-2 break-words whitespace-pre-line">{report.messagePreview || '(no message)'}</blockquote>
        </dd>
      </dl>
      {open ? (
        <div>
          <Button size="sm" variant="outline" disabled={resolve.isPending} onClick={markResolved} aria-describedby={nameId}>
            <CheckIcon aria-hidden="true" />
            {resolve.isPending ? 'Resolving...' : 'Mark resolved'}
          </Button>
        </div>
      ) : null}
    </li>
  );
}
