import { DownloadIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { downloadApplicationsCsv, useAdminApplications, useMarkContacted, type ApplicationView } from '@/resources/opportunities/applications';
import { CONTACT_WITHIN_HOURS } from '../utils/application-schema';

const HOUR_MS = 3_600_000;

/** For admins: applications, newest first, with the 48-hour promise's clock, CSV export and the contacted mark. */
export function AdminApplications() {
  const applications = useAdminApplications();
  const download = () =>
    downloadApplicationsCsv().catch((error: unknown) => toast.error(error instanceof ApiError ? error.message : 'Failed to download the CSV'));
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight">Opportunity Applications</h1>
        <Button variant="outline" onClick={() => void download()}>
          <DownloadIcon aria-hidden="true" />
          Export CSV
        </Button>
      </div>
      {applications.isPending ? (
        <p role="status">Loading applications...</p>
      ) : applications.isError ? (
        <p role="alert" className="text-destructive">
          Failed to load applications
        </p>
      ) : applications.data.length === 0 ? (
        <p className="text-muted-foreground">No applications yet.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Applications">
          {applications.data.map((application) => (
            <ApplicationCard key={application.id} application={application} now={applications.dataUpdatedAt} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** `now` is when the list was fetched, so the wait shown matches the data. */
function ApplicationCard({ application, now }: { application: ApplicationView; now: number }) {
  const mark = useMarkContacted();
  const waitedHours = Math.floor((now - new Date(application.createdAt).getTime()) / HOUR_MS);
  const overdue = !application.contactedAt && waitedHours >= CONTACT_WITHIN_HOURS;
  return (
    <li className="flex flex-col gap-3 rounded-2xl border bg-card p-4 shadow-sm sm:flex-row sm:items-start sm:justify-between" aria-label={application.fullName}>
      <div className="grid min-w-0 gap-1 text-sm">
        <p className="text-base font-semibold">{application.fullName}</p>
        <p className="break-all">
          <a className="underline" href={`mailto:${application.email}`}>
            {application.email}
          </a>
          {application.phone ? ` · ${application.phone}` : null}
          {application.instagram ? ` · @${application.instagram}` : null}
        </p>
        <p className="text-muted-foreground">
          {application.location} · applied {new Date(application.createdAt).toLocaleString()}
        </p>
        {application.interests.length > 0 ? <p>Interests: {application.interests.join(', ')}</p> : null}
        {application.bio ? <p className="whitespace-pre-line text-muted-foreground">{application.bio}</p> : null}
      </div>
      <div className="flex shrink-0 flex-col items-start gap-2 sm:items-end">
        {application.contactedAt ? (
          <Badge className="border-emerald-200 bg-emerald-50 text-emerald-800">Contacted {new Date(application.contactedAt).toLocaleDateString()}</Badge>
        ) : (
          <>
            <Badge className={overdue ? 'border-red-200 bg-red-50 text-red-800' : undefined}>{overdue ? `Waiting ${waitedHours} h: overdue` : `Waiting ${waitedHours} h`}</Badge>
            <Button
              size="sm"
              disabled={mark.isPending}
              onClick={() =>
                mark.mutate(application.id, {
                  onSuccess: () => toast.success('Marked as contacted'),
                  onError: (error) => toast.error(error instanceof ApiError ? error.message : 'Failed to update the application'),
                })
              }
            >
              Mark Contacted
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
