import { useEffect, useRef } from 'react';
import { cn } from '@/lib/utils';
import { messageTime, seenSeq, type ChatMessage } from '../utils/chat';

type MessageListProps = {
  messages: ChatMessage[];
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
export function MessageList({ messages, otherLastReadSeq, otherName }: MessageListProps) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const seen = seenSeq(messages, otherLastReadSeq);
  const newest = messages.at(-1);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    if (atBottom.current || newest?.mine) element.scrollTop = element.scrollHeight;
  }, [newest?.seq, newest?.mine, seen]);

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

  return (
    <div
      ref={box}
      role="log"
      aria-label={`Messages with ${otherName}`}
      aria-live="polite"
      tabIndex={0}
      className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-4"
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_PX;
      }}
      data-testid="message-list"
    >
      {messages.length === 0 ? (
        <p className="m-auto max-w-xs text-center text-sm text-muted-foreground">No messages yet. Say hello to {otherName}!</p>
      ) : (
        messages.map((message) => (
          <div key={message.seq} className={cn('flex flex-col gap-0.5', message.mine ? 'items-end' : 'items-start')} data-testid="chat-message" data-seq={message.seq} data-mine={message.mine}>
            <p
              className={cn(
                'max-w-[85%] rounded-2xl px-3.5 py-2 text-sm break-words whitespace-pre-wrap sm:max-w-[75%]',
                message.mine ? 'rounded-br-md bg-brand-700 text-white' : 'rounded-bl-md bg-muted text-foreground',
              )}
            >
              <span className="sr-only">{message.mine ? 'You' : otherName}: </span>
              <span data-testid="message-content">{message.content}</span>
            </p>
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
    </div>
  );
}
