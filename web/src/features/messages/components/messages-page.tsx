import { ArrowLeftIcon, LoaderCircleIcon, LockIcon, MessageCircleIcon, WifiOffIcon } from 'lucide-react';
import { useCallback, useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { ReportButton } from '@/components/report/report-button';
import { AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useBlockRequester, useContactRequest, useLeaveConversation } from '@/resources/contact-requests/contact-requests';
import { useConversation } from '../hooks/use-conversation';
import { chatMessages } from '../utils/chat';
import { ChatComposer } from './chat-composer';
import { MessageList } from './message-list';

/** What a refusal says before the page goes home (spec: both lead to /). */
export function refusalMessage(error: ApiError): string {
  if (error.status === 403 || error.code === 'not_approved') return chatMessages.notApproved;
  return chatMessages.notFound;
}

/**
 * /messages/{requestId}: the private conversation of an approved contact
 * request, for its two parties only. A 600 px chat box, newest at the
 * bottom, live through the server's event stream; a reload picks up where
 * it was, from the server's copy.
 */
export function MessagesPage({ requestId }: { requestId: string }) {
  const navigate = useNavigate();
  const left = useRef(false);
  const leave = useCallback(
    (error: ApiError) => {
      if (left.current) return;
      left.current = true;
      toast.error(refusalMessage(error), { id: 'messages-refused' });
      void navigate(paths.home.path, { replace: true });
    },
    [navigate],
  );

  const request = useContactRequest(requestId);
  const chat = useConversation(requestId, {
    onRefused: leave,
    onSendFailed: (error) =>
      toast.error(chatMessages.sendFailed, {
        id: 'message-send-failed',
        description: error instanceof ApiError && error.code !== 'http_error' && error.status < 500 ? error.message : 'Your message is kept: press Retry beside it.',
      }),
  });
  useEffect(() => {
    if (request.error instanceof ApiError && request.error.status === 404) leave(request.error);
  }, [request.error, leave]);

  const other = request.data ? (request.data.role === 'contestant' ? request.data.requesterName : request.data.contestantName) : null;
  const closed = Boolean(request.data?.closed) || chat.closedBySend;
  const block = useBlockRequester();
  const leaveChat = useLeaveConversation();
  const safetyFailed = (error: unknown) => toast.error(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.');

  let body;
  if (chat.first.isPending) {
    body = (
      <p role="status" className="m-auto flex items-center gap-2 text-muted-foreground">
        <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin" />
        Loading messages...
      </p>
    );
  } else if (chat.first.isError) {
    const refused = chat.first.error instanceof ApiError && [403, 404].includes(chat.first.error.status);
    body = refused ? null : (
      <div role="alert" className="m-auto flex flex-col items-center gap-3 text-center">
        <p className="font-semibold text-destructive">{chatMessages.loadFailed}</p>
        <Button variant="outline" onClick={() => void chat.first.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = (
      <>
        <MessageList
          messages={chat.messages}
          outbox={chat.outbox}
          onRetry={closed ? undefined : chat.retry}
          otherLastReadSeq={chat.otherLastReadSeq}
          otherName={other ?? 'them'}
        />
        {closed ? (
          <p role="status" className="flex items-center justify-center gap-2 border-t bg-muted px-4 py-2 text-sm font-semibold" data-testid="conversation-closed">
            <LockIcon aria-hidden="true" className="size-4" />
            {chatMessages.closed}
          </p>
        ) : chat.streamStatus === 'reconnecting' ? (
          <p role="status" className="flex items-center justify-center gap-2 border-t bg-amber-50 px-4 py-1.5 text-xs text-amber-950">
            <WifiOffIcon aria-hidden="true" className="size-3.5" />
            Reconnecting... Messages sent meanwhile will appear.
          </p>
        ) : null}
        <ChatComposer
          value={chat.draft}
          error={chat.draftError}
          closed={closed}
          onChange={chat.changeDraft}
          onSend={() => void chat.send()}
        />
      </>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-6 sm:px-6 sm:py-10">
      <PageTitle title={other ? `Chat with ${other}` : paths.messages.title} />
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-3">
          <Link to={paths.contestantRequests.path}>
            <ArrowLeftIcon aria-hidden="true" />
            Contact requests
          </Link>
        </Button>
      </div>
      <header className="flex items-center gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-11 shrink-0 place-items-center rounded-2xl text-white">
          <MessageCircleIcon className="size-5" />
        </span>
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-extrabold tracking-tight sm:text-3xl" data-testid="chat-with">
            {other ?? paths.messages.title}
          </h1>
          <p className="text-sm text-muted-foreground">A private conversation between the two of you.</p>
        </div>
      </header>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Safety">
        <ReportButton kind="conversation" id={requestId} what="this conversation" variant="outline" />
        {request.data ? (
          <ReportButton kind="user" id={request.data.otherUserId} what={other ?? 'this user'} label={`Report ${other ?? 'this user'} as a user`} variant="outline" />
        ) : null}
        {closed ? null : (
          <>
            <ConfirmButton
              variant="outline"
              size="sm"
              title={`Block ${other ?? 'them'}?`}
              description="The conversation ends for both of you, and neither of you can send the other a new request. A fee already paid for an accepted chat is not refunded."
              confirmLabel="Block"
              pendingLabel="Blocking..."
              onConfirm={() =>
                block.mutateAsync(requestId).then(
                  () => void toast.success(`You blocked ${other ?? 'them'}.`),
                  safetyFailed,
                )
              }
            >
              Block
            </ConfirmButton>
            <ConfirmButton
              variant="outline"
              size="sm"
              title="Leave this conversation?"
              description="The conversation closes for both of you. The history stays readable."
              confirmLabel="Leave"
              pendingLabel="Leaving..."
              onConfirm={() =>
                leaveChat.mutateAsync(requestId).then(
                  () => void toast.success('You left the conversation.'),
                  safetyFailed,
                )
              }
            >
              Leave
            </ConfirmButton>
          </>
        )}
      </div>
      <AlertDialog open={chat.asking !== null} onOpenChange={(open) => (open ? undefined : chat.cancelSend())}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Are you sure?</AlertDialogTitle>
            <AlertDialogDescription>{chat.asking}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel onClick={chat.cancelSend}>Edit message</AlertDialogCancel>
            <AlertDialogAction onClick={chat.confirmSend}>Send anyway</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <section aria-label="Chat" className="flex h-[600px] flex-col overflow-hidden rounded-2xl border bg-card shadow-sm" data-testid="chat-box">
        {body}
      </section>
    </div>
  );
}
