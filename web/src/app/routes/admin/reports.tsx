import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { ReportQueue } from '@/features/reports/components/report-queue';

export default function AdminReportsRoute() {
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <PageTitle title={paths.adminReports.title} />
      <h1 className="text-3xl font-extrabold tracking-tight">{paths.adminReports.title}</h1>
      <p className="text-muted-foreground">
        Every report answered within 48 hours; someone under 18 and intimate images shared without consent first. Each decision mails the
        reporter and the affected user the reasons and how to appeal.
      </p>
      <ReportQueue />
    </div>
  );
}
