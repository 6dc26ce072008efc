import { AlertCircleIcon, RotateCwIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { ReportButton } from '@/components/report/report-button';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { chatMessages, messageTime, seenSeq, type ChatMessage, type OutgoingMessage } from '../utils/chat';

type MessageListProps = {
  messages: ChatMessage[];
  /** The user's messages on their way (or failed), after the stored ones. */
  outbox?: OutgoingMessage[];
  /** Sends a failed message again; absent when the conversation is closed. */
  onRetry?: (id: string) => void;
  otherLastReadSeq: number;
  otherName: string;
};

/** Near enough to the bottom that a new message should scroll into view. */
const STICK_PX = 120;

/**
 * The conversation, oldest first, newest at the bottom. It follows new
 * messages while the reader is at the bottom (and always for their own),
 * and leaves them alone while they scroll back through older ones.
 */
export function MessageList({ messages, outbox = [], onRetry, otherLastReadSeq, otherName }: MessageListProps) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const seen = seenSeq(messages, otherLastReadSeq);
  const newest = messages.at(-1);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    if (atBottom.current || newest?.mine) element.scrollTop = element.scrollHeight;
  }, [newest?.seq, newest?.mine, seen]);

  // The user's own new message is always brought into view.
  const outgoing = outbox.length;
  useEffect(() => {
    const element = box.current;
    if (element && outgoing > 0) element.scrollTop = element.scrollHeight;
  }, [outgoing]);

  // The box shrinking (a banner below it, the phone's keyboard) keeps the newest message in view.
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // The box is `relative`, and so is each bubble: the visually hidden labels
  // inside the messages are absolutely positioned, and without a positioned
  // ancestor here they are placed against the page, below the box, so the
  // page grew by the height of the whole conversation.
  return (
    <div
      ref={box}
      role="log"
      aria-label={`Messages with ${otherName}`}
      aria-live="polite"
      tabIndex={0}
      className="relative flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-4"
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_PX;
      }}
      data-testid="message-list"
    >
      {messages.length === 0 && outbox.length === 0 ? (
        <p className="m-auto max-w-xs text-center text-sm text-muted-foreground">No messages yet. Say hello to {otherName}!</p>
      ) : (
        messages.map((message) => (
          <div key={message.seq} className={cn('flex flex-col gap-0.5', message.mine ? 'items-end' : 'items-start')} data-testid="chat-message" data-seq={message.seq} data-mine={message.mine}>
            <p
              className={cn(
                'relative max-w-[85%] rounded-2xl px-3.5 py-2 text-sm break-words whitespace-pre-wrap sm:max-w-[75%]',
                message.mine ? 'rounded-br-md bg-brand-700 text-white' : 'rounded-bl-md bg-muted text-foreground',
              )}
            >
              <span className="sr-only">{message.mine ? 'You' : otherName}: </span>
              {message.removed ? (
                <span data-testid="message-content" className="italic opacity-80">
                  {chatMessages.removed}
                </span>
              ) : (
                <span data-testid="message-content">{message.content}</span>
              )}
            </p>
            {!message.mine && !message.removed ? (
              <ReportButton kind="message" id={message.id} what="this message" label={`Report this message from ${otherName}`} />
            ) : null}
            <span className="px-1 text-xs text-muted-foreground">
              <time dateTime={message.createdAt}>{messageTime(message.createdAt)}</time>
              {seen === message.seq ? (
                <span className="font-semibold text-brand-700" data-testid="seen-mark">
                  {' '}
                  · Seen
                </span>
              ) : null}
            </span>
          </div>
        ))
      )}
      {outbox.map((message) => (
        <div key={message.id} className="flex flex-col items-end gap-0.5" data-testid="outgoing-message" data-status={message.status}>
          <p
            className={cn(
              'relative max-w-[85%] rounded-2xl rounded-br-md px-3.5 py-2 text-sm break-words whitespace-pre-wrap sm:max-w-[75%]',
              message.status === 'failed' ? 'border border-destructive bg-red-50 text-foreground' : 'bg-brand-700 text-white',
            )}
          >
            <span className="sr-only">You: </span>
            <span data-testid="message-content">{message.content}</span>
          </p>
          {message.status === 'sending' ? (
            <span className="px-1 text-xs text-muted-foreground" data-testid="message-status">
              {chatMessages.sending}
            </span>
          ) : (
            <span className="flex items-center gap-1 px-1 text-xs font-semibold text-destructive" data-testid="message-status">
              <AlertCircleIcon aria-hidden="true" className="size-3.5" />
              {message.error ? `${chatMessages.notSent}: ${message.error}` : chatMessages.notSent}
              {onRetry ? (
                <Button type="button" variant="ghost" size="sm" className="h-7 px-2 text-xs text-destructive" onClick={() => onRetry(message.id)}>
                  <RotateCwIcon aria-hidden="true" className="size-3.5" />
                  Retry<span className="sr-only"> sending “{message.content.slice(0, 40)}”</span>
                </Button>
              ) : null}
            </span>
          )}
        </div>
      ))}
    </div>
  );
}
