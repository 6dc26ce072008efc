import { useSearchParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { ReportForm } from '@/components/report/report-form';
import type { ReportTargetKind } from '@/resources/reports/reports';

const WHAT: Record<ReportTargetKind, string> = {
  share: 'this shared page',
  photo: 'this photo',
  contest_entry: 'this contest entry',
  message: 'this message',
  conversation: 'this conversation',
  user: 'this user',
};

/** `/report?kind=share&id=<slug>`: the report form for what a link names (the share page links here). */
export default function ReportRoute() {
  const [params] = useSearchParams();
  const kind = params.get('kind') as ReportTargetKind | null;
  const id = params.get('id');
  const valid = kind !== null && kind in WHAT && !!id;
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.report.title} />
      <h1 className="text-3xl font-extrabold tracking-tight">{paths.report.title}</h1>
      <p>Tell us what is wrong. An admin looks at every report within 48 hours and tells you what was decided.</p>
      {valid ? (
        <ReportForm kind={kind} id={id} what={WHAT[kind]} />
      ) : (
        <p role="alert">This link does not say what to report. Please use the Report button next to the content.</p>
      )}
    </div>
  );
}
