import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircleIcon, SearchIcon, Undo2Icon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
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
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { z } from '@/lib/zod';
import { useAdminPayments, useRefundPayment, type AdminPayment } from '@/resources/billing/admin-payments';
import { formatDate, formatMoney } from '@/resources/billing/billing';

/** A refund's reason: 1-500 characters once trimmed (the server's limit). */
export const REFUND_REASON_MAX = 500;

export const refundMessages = {
  reasonMissing: 'Please give a reason for the refund',
  reasonTooLong: 'The reason must be at most 500 characters',
  refunded: 'Refunded. The payer gets the money back; any share paid from it is taken back.',
  queued: 'The refund is asked for; the payment provider has not confirmed it yet. It is tried again until it is done.',
  failed: 'Failed to refund the payment',
  loadFailed: 'Failed to load payments',
} as const;

const refundReasonSchema = z.object({
  reason: z.string().trim().min(1, refundMessages.reasonMissing).max(REFUND_REASON_MAX, refundMessages.reasonTooLong),
});

type FormInput = z.input<typeof refundReasonSchema>;
type FormOutput = z.output<typeof refundReasonSchema>;

const STATUS_LABELS: Record<string, string> = {
  succeeded: 'Paid',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
  failed: 'Failed',
  pending: 'Pending',
  held: 'On hold',
  canceled: 'Released',
};

/** What became of the payee's share (a contestant's 75 % of a contact fee). */
const SHARE_LABELS: Record<string, string> = {
  held: 'held',
  captured: 'in the refund window',
  payable: 'payable',
  transferred: 'paid out',
  released: 'released',
  canceled: 'cancelled',
  reversed: 'taken back',
};

/** The words of a failed refund: the server's for its own refusals. */
export function refundErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) return error.message;
  return refundMessages.failed;
}

/** What the page says after a refund was asked for. */
export function refundOutcome(payment: Pick<AdminPayment, 'status' | 'refund'>): string {
  return payment.status === 'refunded' || payment.status === 'canceled' || payment.refund?.doneAt ? refundMessages.refunded : refundMessages.queued;
}

/**
 * /admin/payments: the newest payments (Premium, the detailed analysis,
 * contact fees) with their payer, and Refund with a reason. The server
 * refunds once, however often it is pressed, through the payment provider;
 * a contestant's or partner's share is then taken back by the ledgers.
 */
export function AdminPayments() {
  const [email, setEmail] = useState('');
  const [draft, setDraft] = useState('');
  const payments = useAdminPayments(email);
  const searchId = useId();
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <div className="grid gap-2">
        <h1 className="text-3xl font-extrabold tracking-tight">Payments</h1>
        <p className="text-sm text-muted-foreground">
          Refund gives a payment back in full through the payment provider: a charge is refunded, a hold that was never charged is released. The
          contestant’s share of a contact fee is cancelled, or taken back if it was paid out; a partner’s commission is reduced, or owed back and
          deducted from their next payout. Refunding Premium does not end the subscription.
        </p>
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setEmail(draft);
        }}
      >
        <div className="grid min-w-0 flex-1 gap-1.5">
          <Label htmlFor={searchId}>Payer’s email</Label>
          <Input id={searchId} type="email" value={draft} onChange={(event) => setDraft(event.target.value)} placeholder="name@example.com" />
        </div>
        <Button type="submit" variant="outline">
          <SearchIcon aria-hidden="true" />
          Search
        </Button>
      </form>
      {payments.isPending ? (
        <p role="status">Loading payments...</p>
      ) : payments.isError ? (
        <p role="alert" className="text-destructive">
          {refundMessages.loadFailed}
        </p>
      ) : payments.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed p-8 text-center text-muted-foreground">No payments{email.trim() ? ` by ${email.trim()}` : ''}.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Payments">
          {payments.data.map((payment) => (
            <PaymentRow key={payment.id} payment={payment} />
          ))}
        </ul>
      )}
    </div>
  );
}

function PaymentRow({ payment }: { payment: AdminPayment }) {
  const status = STATUS_LABELS[payment.status] ?? payment.status;
  return (
    <li className="flex flex-col gap-3 rounded-2xl border bg-card p-4 shadow-sm sm:flex-row sm:items-start sm:justify-between" data-testid="admin-payment">
      <div className="grid min-w-0 gap-0.5 text-sm">
        <p className="text-base font-bold">{payment.description}</p>
        <p className="text-muted-foreground">
          {payment.email ?? 'Deleted account'} · {formatDate(payment.createdAt)}
          {payment.provider === 'sandbox' ? ' · test payment' : ''}
        </p>
        {payment.share ? <p data-testid="payment-share">Payee’s share: {SHARE_LABELS[payment.share] ?? payment.share}</p> : null}
        {payment.duplicate ? <p className="text-muted-foreground">A second payment for one contact request: given back at once.</p> : null}
        {payment.refund ? (
          <p data-testid="payment-refund">
            Refund asked: “{payment.refund.reason}”
            {payment.refund.doneAt ? '' : payment.refund.lastError ? ` (not done yet: ${payment.refund.lastError})` : ' (waiting for the provider)'}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-row items-center justify-between gap-3 sm:flex-col sm:items-end">
        <div className="grid text-right">
          <span className="text-lg font-bold tabular-nums">{formatMoney(payment.amountCents, payment.currency)}</span>
          <span className="text-sm text-muted-foreground" data-testid="payment-status">
            {status}
            {payment.refundedCents > 0 ? ` (${formatMoney(payment.refundedCents, payment.currency)} back)` : ''}
          </span>
        </div>
        {payment.refundable ? <RefundButton payment={payment} /> : null}
      </div>
    </li>
  );
}

function RefundButton({ payment }: { payment: AdminPayment }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Undo2Icon aria-hidden="true" />
          Refund
          <span className="sr-only">
            {' '}
            {payment.description} of {formatMoney(payment.amountCents, payment.currency)}
          </span>
        </Button>
      </DialogTrigger>
      <DialogContent data-testid="refund-dialog">
        {/* Mounted while open: every refund starts with an empty reason. */}
        <RefundForm payment={payment} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function RefundForm({ payment, onDone }: { payment: AdminPayment; onDone: () => void }) {
  const refund = useRefundPayment();
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(refundReasonSchema), defaultValues: { reason: '' } });
  const ids = { reason: useId(), hint: useId(), notice: useId() };
  const value = useWatch({ control: form.control, name: 'reason' }) ?? '';
  const error = form.formState.errors.reason?.message;
  const busy = refund.isPending;
  const amount = formatMoney(payment.amountCents - payment.refundedCents, payment.currency);
  const held = payment.status === 'held';

  const onSubmit = form.handleSubmit(({ reason }) => {
    refund.mutate(
      { id: payment.id, reason },
      {
        onSuccess: (after) => {
          toast.success(refundOutcome(after));
          onDone();
        },
        onError: (failure) => {
          toast.error(refundErrorMessage(failure));
          // Refunded before: there is nothing more to send.
          if (failure instanceof ApiError && failure.status === 409) onDone();
        },
      },
    );
  });

  return (
    <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)} noValidate aria-label={`Refund ${payment.description}`}>
      <DialogHeader>
        <DialogTitle>
          {held ? 'Release' : 'Refund'} {amount}?
        </DialogTitle>
        <DialogDescription id={ids.notice}>
          {payment.description} paid by {payment.email ?? 'a deleted account'}.{' '}
          {held ? 'The hold on their card is released: they are not charged.' : 'The whole amount goes back to their card through the payment provider.'} This cannot be
          undone.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.reason}>Reason (kept in the audit log)</Label>
        <Textarea
          id={ids.reason}
          rows={3}
          maxLength={REFUND_REASON_MAX}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${ids.hint}${error ? ` ${ids.reason}-error` : ''}`}
          {...form.register('reason')}
        />
        <span id={ids.hint} className="text-xs text-muted-foreground">
          Up to {REFUND_REASON_MAX} characters.
        </span>
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
        <Button type="submit" disabled={busy || value.trim().length === 0} aria-describedby={ids.notice}>
          {busy ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <Undo2Icon aria-hidden="true" />}
          {busy ? 'Refunding...' : held ? 'Release hold' : `Refund ${amount}`}
        </Button>
      </DialogFooter>
    </form>
  );
}
