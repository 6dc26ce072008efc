import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api-client';
import { useAppeal, type DecisionView } from '@/resources/reports/reports';

const APPEAL_STATUS: Record<string, string> = {
  open: 'Your appeal is waiting for another admin. We will answer you by mail.',
  upheld: 'Your appeal was heard: the decision stands.',
  reversed: 'Your appeal was heard: the decision was reversed.',
};

/** A decision, its statement of reasons, and the one appeal (DSA Art. 17 and 20). */
export function DecisionCard({ decision, token, level = 3 }: { decision: DecisionView; token?: string; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const [statement, setStatement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const appeal = useAppeal();
  const ids = { statement: useId(), heading: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    appeal.mutate(
      { id: decision.id, statement: statement.trim(), token },
      { onError: (cause) => setError(cause instanceof ApiError ? cause.message : 'Your appeal could not be sent. Please try again.') },
    );
  };
  return (
    <article aria-labelledby={ids.heading} className="flex flex-col gap-2 rounded-2xl border p-4">
      <Heading id={ids.heading} className="font-semibold">
        {decision.summary}
      </Heading>
      <p className="text-sm">
        <span className="font-semibold">Why: </span>
        {decision.statement}
      </p>
      <p className="text-sm">
        <span className="font-semibold">The rule: </span>
        <Link to={decision.rule_link} className="underline">
          {decision.rule_title}
        </Link>
      </p>
      <p className="text-xs text-muted-foreground">Decided by an admin on {new Date(decision.created_at).toLocaleString()}.</p>
      {decision.appeal_status && (
        <p role="status" className="text-sm font-semibold">
          {APPEAL_STATUS[decision.appeal_status] ?? decision.appeal_status}
          {decision.appeal_answer ? ` “${decision.appeal_answer}”` : ''}
        </p>
      )}
      {appeal.isSuccess && !decision.appeal_status && (
        <p role="status" className="text-sm font-semibold">
          {appeal.data.message}
        </p>
      )}
      {decision.appealable && !appeal.isSuccess && (
        <form onSubmit={submit} className="flex flex-col gap-2">
          <Label htmlFor={ids.statement}>Why is this decision wrong? You can appeal once; another admin answers.</Label>
          <Textarea id={ids.statement} value={statement} maxLength={2000} onChange={(event) => setStatement(event.target.value)} />
          {error && (
            <p role="alert" className="text-sm font-semibold text-destructive">
              {error}
            </p>
          )}
          <Button type="submit" disabled={!statement.trim() || appeal.isPending}>
            Send appeal
          </Button>
        </form>
      )}
    </article>
  );
}
