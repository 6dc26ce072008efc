import { CheckIcon, MessageCircleIcon, XIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { messagesPathFor } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { formatDate, formatMoney } from '@/resources/billing/billing';
import { useAppConfig } from '@/resources/app-config/get-app-config';
import { useDecideRequest, type ContactRequest } from '@/resources/contact-requests/contact-requests';
import { contestantRule, DEFAULT_REPLY_WINDOW_DAYS, messages, sentState } from '../utils/rules';
import { BlockRequesterButton } from './block-requester-button';
import { ReportRequesterButton } from './report-requester-button';

function Amount({ term, value, testId }: { term: string; value: string; testId?: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="font-bold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function OpenChatLink({ request }: { request: ContactRequest }) {
  const other = request.role === 'contestant' ? request.requesterName : request.contestantName;
  return (
    <Button asChild size="sm">
      <Link to={messagesPathFor(request.id)} aria-label={`Open chat with ${other}`}>
        <MessageCircleIcon aria-hidden="true" />
        Open chat
      </Link>
    </Button>
  );
}

/**
 * A request to the user (the contestant): who, what they wrote, the fee and
 * the user's share, and the answers: approve or deny, block, report.
 */
export function ReceivedRequestCard({ request }: { request: ContactRequest }) {
  const decide = useDecideRequest();
  const replyDays = useAppConfig().data?.reply_window_days ?? DEFAULT_REPLY_WINDOW_DAYS;
  const pending = request.status === 'pending';
  const refunded = request.status === 'approved' && request.paymentStatus === 'refunded';
  const deciding = decide.isPending;

  // Awaited rather than given callbacks: the live event stream can move this
  // card away (refetching the lists) before the answer's own response
  // arrives, and an unmounted caller's mutate callbacks never run.
  const answer = async (approve: boolean) => {
    try {
      await decide.mutateAsync({ id: request.id, approve });
      toast.success(approve ? messages.approved : messages.denied);
    } catch (error) {
      const title = approve ? messages.approveFailed : messages.denyFailed;
      toast.error(title, error instanceof ApiError && error.code !== 'http_error' ? { description: error.message } : undefined);
    }
  };

  return (
    <li className="grid gap-3 rounded-2xl border bg-card p-4 shadow-sm sm:p-5" data-testid="received-request">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 className="text-lg font-bold break-words">{request.requesterName}</h2>
        <span className="text-xs text-muted-foreground">Sent {formatDate(request.createdAt)}</span>
      </div>
      <blockquote className="rounded-xl bg-muted px-3 py-2 text-sm break-words whitespace-pre-line" data-testid="request-message">
        {request.messagePreview}
      </blockquote>
      <dl className="flex flex-wrap gap-x-6 gap-y-2">
        <Amount term="Fee" value={formatMoney(request.feeCents)} testId="request-fee" />
        <Amount term="Your share (75%)" value={formatMoney(request.contestantShareCents)} testId="request-share" />
        {pending && request.expiresAt ? <Amount term="Answer by" value={formatDate(request.expiresAt)} testId="request-expires" /> : null}
      </dl>
      {refunded ? (
        <p className="text-sm font-semibold" data-testid="request-refunded">
          The requester was refunded: this request earns you nothing. Your earnings page says why.
        </p>
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="request-reply-rule">
          {contestantRule(replyDays)}
        </p>
      )}
      {request.closed ? <p className="text-sm font-semibold text-muted-foreground">This conversation is closed.</p> : null}
      <div className="flex flex-wrap items-center gap-2">
        {pending ? (
          <>
            <Button size="sm" onClick={() => void answer(true)} disabled={deciding} aria-label={`Approve ${request.requesterName}'s request`}>
              <CheckIcon aria-hidden="true" />
              Approve
            </Button>
            <Button variant="outline" size="sm" onClick={() => void answer(false)} disabled={deciding} aria-label={`Deny ${request.requesterName}'s request`}>
              <XIcon aria-hidden="true" />
              Deny
            </Button>
          </>
        ) : (
          <OpenChatLink request={request} />
        )}
        {request.closed ? null : <BlockRequesterButton request={request} />}
        <ReportRequesterButton request={request} />
      </div>
    </li>
  );
}

const toneClass = {
  waiting: 'bg-amber-100 text-amber-950',
  good: 'bg-emerald-100 text-emerald-950',
  bad: 'bg-red-100 text-red-950',
  neutral: 'bg-muted text-foreground',
} as const;

/** A request the user sent: to whom, what they wrote, the fee, and what became of it. */
export function SentRequestCard({ request }: { request: ContactRequest }) {
  const state = sentState(request);
  const waiting = request.status === 'pending' && request.paid;
  return (
    <li className="grid gap-3 rounded-2xl border bg-card p-4 shadow-sm sm:p-5" data-testid="sent-request">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-bold break-words">To {request.contestantName}</h2>
        <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold', toneClass[state.tone])} data-testid="sent-status">
          {state.label}
        </span>
      </div>
      <blockquote className="rounded-xl bg-muted px-3 py-2 text-sm break-words whitespace-pre-line">{request.messagePreview}</blockquote>
      <dl className="flex flex-wrap gap-x-6 gap-y-2">
        <Amount term="Fee" value={formatMoney(request.feeCents)} />
        <Amount term="Sent" value={formatDate(request.createdAt)} />
        {waiting && request.expiresAt ? <Amount term="Answer by" value={formatDate(request.expiresAt)} /> : null}
      </dl>
      <p className="text-sm text-muted-foreground">{state.detail}</p>
      {request.status === 'approved' ? (
        <div>
          <OpenChatLink request={request} />
        </div>
      ) : null}
    </li>
  );
}
