import { zodResolver } from '@hookform/resolvers/zod';
import { FlagIcon, LoaderCircleIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { z } from '@/lib/zod';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useReportRequester, type ContactRequest } from '@/resources/contact-requests/contact-requests';
import { REPORT_REASON_MAX, characterCount, messages, reportErrorMessage, reportReasonSchema } from '../utils/rules';

type FormInput = z.input<typeof reportReasonSchema>;
type FormOutput = z.output<typeof reportReasonSchema>;

export const REPORT_REASON_LABEL = 'Why are you reporting this requester?';

/**
 * Report a requester to the admins, with a reason. Reporting blocks them as
 * Block does: their open requests are denied and the chat closes.
 */
export function ReportRequesterButton({ request }: { request: ContactRequest }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Report ${request.requesterName}`}>
          <FlagIcon aria-hidden="true" />
          Report
        </Button>
      </DialogTrigger>
      <DialogContent data-testid="report-requester-dialog">
        {/* Mounted while open: every report starts with an empty reason. */}
        <ReportForm request={request} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ReportForm({ request, onDone }: { request: ContactRequest; onDone: () => void }) {
  const report = useReportRequester();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(reportReasonSchema),
    defaultValues: { reason: '' },
  });
  const ids = { reason: useId(), hint: useId(), notice: useId() };
  const value = useWatch({ control: form.control, name: 'reason' }) ?? '';
  const error = form.formState.errors.reason?.message;
  const busy = report.isPending;

  const onSubmit = form.handleSubmit(({ reason }) => {
    report.mutate(
      { id: request.id, reason },
      {
        onSuccess: () => {
          toast.success(messages.reported);
          onDone();
        },
        onError: (failure) => {
          toast.error(reportErrorMessage(failure));
          // Reported before: there is nothing more to send.
          if ((failure as { status?: unknown }).status === 409) onDone();
        },
      },
    );
  });

  return (
    <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)} noValidate aria-label={`Report ${request.requesterName}`}>
      <DialogHeader>
        <DialogTitle>Report {request.requesterName}</DialogTitle>
        <DialogDescription id={ids.notice}>
          Reporting also blocks them: their open requests to you are denied, the holds on their card are released, and any chat with
          them closes. Our admins review your report.
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-1.5">
        <Label htmlFor={ids.reason}>{REPORT_REASON_LABEL}</Label>
        <Textarea
          id={ids.reason}
          rows={4}
          maxLength={REPORT_REASON_MAX}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${ids.hint}${error ? ` ${ids.reason}-error` : ''}`}
          {...form.register('reason')}
        />
        <div className="flex items-start justify-between gap-3 text-xs text-muted-foreground">
          <span id={ids.hint}>Up to {REPORT_REASON_MAX} characters.</span>
          <span data-testid="report-counter" aria-hidden="true">
            {characterCount(value, REPORT_REASON_MAX)}
          </span>
        </div>
        {error ? (
          <p id={`${ids.reason}-error`} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>

      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button
          type="submit"
          variant="ghost"
          className="bg-destructive text-white hover:bg-destructive hover:brightness-110"
          disabled={busy || value.trim().length === 0} aria-describedby={ids.notice}
        >
          {busy ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <FlagIcon aria-hidden="true" />}
          {busy ? 'Reporting...' : 'Report and block'}
        </Button>
      </DialogFooter>
    </form>
  );
}
