import { useId, useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import {
  GUIDELINE_RULES,
  useDecideAppeal,
  useDecideReport,
  useReportQueue,
  type QueuedAppeal,
  type QueuedReport,
} from '@/resources/reports/reports';

/** "47 h 12 min left", or "Overdue by 2 h 5 min". */
export function timeLeft(seconds: number): string {
  const overdue = seconds < 0;
  const total = Math.abs(Math.trunc(seconds / 60));
  const text = `${Math.floor(total / 60)} h ${total % 60} min`;
  return overdue ? `Overdue by ${text}` : `${text} left`;
}

const ACTIONS = [
  { value: 'dismiss', label: 'Dismiss: nothing breaks the guidelines' },
  { value: 'remove', label: 'Remove the content' },
  { value: 'suspend', label: 'Suspend the account' },
  { value: 'ban', label: 'Ban the account' },
] as const;

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}

function DecisionForm({ report }: { report: QueuedReport }) {
  const [action, setAction] = useState<string>('');
  const [rule, setRule] = useState(report.rule);
  const [statement, setStatement] = useState('');
  const [days, setDays] = useState('7');
  const decide = useDecideReport();
  const ids = { rule: useId(), statement: useId(), days: useId(), action: useId() };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    decide.mutate(
      {
        id: report.id,
        body: {
          action,
          rule,
          statement: statement.trim(),
          suspend_days: action === 'suspend' ? Number(days) : undefined,
        },
      },
      {
        onSuccess: () => toast.success('Decided. The reporter and the affected user have been mailed the reasons.'),
        onError: (error) => toast.error(errorText(error)),
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-3 border-t pt-3">
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-semibold">Decision</legend>
        {ACTIONS.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={ids.action}
              value={option.value}
              checked={action === option.value}
              onChange={() => setAction(option.value)}
              className="size-4"
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {action === 'suspend' && (
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.days}>Days (1 to 365)</Label>
          <Input id={ids.days} type="number" min={1} max={365} value={days} onChange={(event) => setDays(event.target.value)} />
        </div>
      )}
      <div className="flex flex-col gap-1">
        <Label htmlFor={ids.rule}>Rule of the guidelines</Label>
        <select
          id={ids.rule}
          value={rule}
          onChange={(event) => setRule(event.target.value)}
          className="h-10 rounded-xl border bg-card px-3 text-sm"
        >
          {GUIDELINE_RULES.map((option) => (
            <option key={option.id} value={option.id}>
              {option.id}: {option.title}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={ids.statement}>Statement of reasons (the reporter and the affected user read it)</Label>
        <Textarea id={ids.statement} value={statement} maxLength={2000} onChange={(event) => setStatement(event.target.value)} />
      </div>
      <Button type="submit" disabled={!action || !statement.trim() || decide.isPending}>
        Decide
      </Button>
    </form>
  );
}

function ReportCard({ report }: { report: QueuedReport }) {
  return (
    <Card className="flex flex-col gap-2 p-4" aria-label={`Report: ${report.reason_label}`}>
      <div className="flex flex-wrap items-center gap-2">
        {report.urgent && <Badge className="border-red-200 bg-red-50 text-red-800">Urgent</Badge>}
        <Badge>{report.reported_as.replace('_', ' ')}</Badge>
        <span className="font-semibold">{report.reason_label}</span>
        <span className={report.seconds_left < 4 * 3600 ? 'font-semibold text-destructive' : 'text-muted-foreground'}>
          {timeLeft(report.seconds_left)}
        </span>
      </div>
      <p className="text-sm">
        {report.label}
        {report.excerpt ? `: ${report.excerpt}` : ''}
      </p>
      {report.image_url && <img src={report.image_url} alt={`Reported: ${report.excerpt}`} className="max-h-48 w-fit rounded-xl" />}
      {report.details && <p className="text-sm whitespace-pre-wrap">“{report.details}”</p>}
      <p className="text-xs text-muted-foreground">
        Reported by {report.reporter_email ?? 'a member'}
        {report.signed_out ? ' (signed out, good-faith statement given)' : ''} · About {report.affected_email ?? 'nobody known'} ·{' '}
        {report.open_reports_of_target} open report{report.open_reports_of_target === 1 ? '' : 's'} of this
      </p>
      <DecisionForm report={report} />
    </Card>
  );
}

function AppealCard({ appeal, admins }: { appeal: QueuedAppeal; admins: number }) {
  const [outcome, setOutcome] = useState<'upheld' | 'reversed' | ''>('');
  const [answer, setAnswer] = useState('');
  const decide = useDecideAppeal();
  const ids = { outcome: useId(), answer: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!outcome) return;
    decide.mutate(
      { id: appeal.id, outcome, answer: answer.trim() },
      { onSuccess: () => toast.success('Answered. The user has been mailed.'), onError: (error) => toast.error(errorText(error)) },
    );
  };
  return (
    <Card className="flex flex-col gap-2 p-4" aria-label={`Appeal of: ${appeal.decision.summary}`}>
      <p className="font-semibold">{appeal.decision.summary}</p>
      <p className="text-sm text-muted-foreground">Reasons given: {appeal.decision.statement}</p>
      <p className="text-sm whitespace-pre-wrap">The user's appeal: “{appeal.statement}”</p>
      {appeal.may_decide ? (
        <form onSubmit={submit} className="flex flex-col gap-3 border-t pt-3">
          <fieldset className="flex flex-col gap-1">
            <legend className="text-sm font-semibold">Outcome</legend>
            {(['upheld', 'reversed'] as const).map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input type="radio" name={ids.outcome} checked={outcome === value} onChange={() => setOutcome(value)} className="size-4" />
                {value === 'upheld' ? 'Uphold: the decision stands' : 'Reverse the decision'}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.answer}>Answer to the user</Label>
            <Textarea id={ids.answer} value={answer} maxLength={2000} onChange={(event) => setAnswer(event.target.value)} />
          </div>
          <Button type="submit" disabled={!outcome || !answer.trim() || decide.isPending}>
            Answer the appeal
          </Button>
        </form>
      ) : (
        <p className="text-sm font-semibold">
          You took this decision, so another admin must answer the appeal.
          {admins < 2 ? ' There is only one admin: grant a second one (prettyscore admin grant EMAIL).' : ''}
        </p>
      )}
    </Card>
  );
}

/** The one admin queue: every report, urgent first, with its 48 hours; and the appeals. */
export function ReportQueue() {
  const queue = useReportQueue();
  if (queue.isPending) return <p>Loading reports…</p>;
  if (queue.isError) return <p role="alert">The reports could not be loaded. Please try again.</p>;
  const { reports, appeals, admins } = queue.data;
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="open-reports" className="flex flex-col gap-3">
        <h2 id="open-reports" className="text-2xl font-bold">
          Open reports ({reports.length})
        </h2>
        {reports.length === 0 ? <p>No open reports.</p> : reports.map((report) => <ReportCard key={report.id} report={report} />)}
      </section>
      <section aria-labelledby="open-appeals" className="flex flex-col gap-3">
        <h2 id="open-appeals" className="text-2xl font-bold">
          Appeals ({appeals.length})
        </h2>
        {appeals.length === 0 ? (
          <p>No appeals waiting.</p>
        ) : (
          appeals.map((appeal) => <AppealCard key={appeal.id} appeal={appeal} admins={admins} />)
        )}
      </section>
    </div>
  );
}
