import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { REPORT_REASONS, useCreateReport, type ReportTargetKind } from '@/resources/reports/reports';

export const REPORT_RECEIVED_MESSAGE = 'Thank you. We have received your report and will answer within 48 hours.';
const REPORT_FAILED_MESSAGE = 'Your report could not be sent. Please try again.';

/**
 * The one report form (DSA Art. 16): a reason, free text, and for a
 * signed-out visitor an email address and the good-faith statement. The
 * server decides what may be reported by whom; this only mirrors it.
 */
export function ReportForm({
  kind,
  id,
  what,
  onDone,
}: {
  kind: ReportTargetKind;
  id: string;
  /** What is reported, in a few words ("this photo", "this message"). */
  what: string;
  onDone?: () => void;
}) {
  const { session } = useSession();
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const [email, setEmail] = useState('');
  const [goodFaith, setGoodFaith] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const report = useCreateReport();
  const ids = { reason: useId(), details: useId(), email: useId(), faith: useId(), error: useId() };
  const signedOut = !session;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!reason) return setError('Please choose a reason for your report.');
    if (signedOut && !email.trim()) return setError('Please enter your email address, so that we can tell you what we decide.');
    if (signedOut && !goodFaith) return setError('Please confirm that your report is accurate and made in good faith.');
    report.mutate(
      {
        target: { kind, id },
        reason,
        details: details.trim() || undefined,
        reporter_email: signedOut ? email.trim() : undefined,
        good_faith: signedOut ? goodFaith : undefined,
      },
      {
        onSuccess: () => {
          setSent(true);
          onDone?.();
        },
        onError: (cause) => setError(cause instanceof ApiError && cause.status < 500 ? cause.message : REPORT_FAILED_MESSAGE),
      },
    );
  };

  if (sent) {
    return (
      <p role="status" className="rounded-2xl bg-muted p-4 text-sm">
        {REPORT_RECEIVED_MESSAGE} {signedOut ? 'We have sent a confirmation to your email address.' : ''}
      </p>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-describedby={error ? ids.error : undefined} noValidate>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-semibold">Why are you reporting {what}?</legend>
        {REPORT_REASONS.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={ids.reason}
              value={option.value}
              checked={reason === option.value}
              onChange={() => setReason(option.value)}
              className="size-4 accent-[var(--primary)]"
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-2">
        <Label htmlFor={ids.details}>What is wrong? (optional)</Label>
        <Textarea id={ids.details} value={details} maxLength={2000} onChange={(event) => setDetails(event.target.value)} />
      </div>
      {signedOut && (
        <>
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.email}>Your email address</Label>
            <Input id={ids.email} type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
            <p className="text-xs text-muted-foreground">We confirm your report and tell you what we decide at this address.</p>
          </div>
          <label htmlFor={ids.faith} className="flex items-start gap-2 text-sm">
            <input id={ids.faith} type="checkbox" checked={goodFaith} onChange={(event) => setGoodFaith(event.target.checked)} className="mt-0.5 size-4" />
            I believe the information in this report is accurate and complete, and I make it in good faith.
          </label>
        </>
      )}
      {error && (
        <p id={ids.error} role="alert" className="text-sm font-semibold text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" disabled={report.isPending}>
        Send report
      </Button>
    </form>
  );
}
