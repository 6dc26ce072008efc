/**
 * The conversation's small rules: merging messages by sequence number,
 * the composer's limits and keys, the 'Seen' mark and the error words.
 * Pure, so they are tested alone.
 */
import { z } from '@/lib/zod';
import type { ChatMessage } from '@/resources/messages/messages';

export type { ChatMessage };

/**
 * A message the user has sent that the server has not yet confirmed: shown
 * at once, keyed by the client id the send API takes (the stored message
 * comes back with the same id).
 */
export type OutgoingMessage = {
  id: string;
  content: string;
  createdAt: string;
  status: 'sending' | 'failed';
  /** The server's reason, when it gave one the user can act on. */
  error: string | null;
  /** The sender answered the server's "Are you sure?" with yes. */
  confirm?: boolean;
};

export const CHAT_MESSAGE_MAX = 5000;

export const chatMessages = {
  empty: 'Message cannot be empty',
  tooLong: 'Message must be less than 5000 characters',
  sendFailed: 'Failed to send message',
  sending: 'Sending…',
  notSent: 'Not sent',
  notFound: 'Contact request not found',
  notApproved: 'This contact request is not approved',
  closed: 'This conversation is closed',
  removed: 'This message was removed',
  loadFailed: 'Failed to load messages',
} as const;

/** A chat message: 1-5000 characters, not only spaces. */
export const chatMessageSchema = z
  .string()
  .refine((value) => value.trim().length > 0, chatMessages.empty)
  .refine((value) => value.length <= CHAT_MESSAGE_MAX, chatMessages.tooLong);

/** The composer's problem with `value`, or null when it can be sent. */
export function chatMessageError(value: string): string | null {
  const result = chatMessageSchema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? chatMessages.empty);
}

/**
 * Messages merged by sequence number: in order, each seq once (the stream
 * may replay what the page already has, and a sent message comes back both
 * from the POST and from the stream). A known seq keeps the copy already
 * held. Returns `current` itself when nothing is new, so React can skip a
 * render.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current as ChatMessage[];
  const bySeq = new Map<number, ChatMessage>();
  for (const message of current) bySeq.set(message.seq, message);
  let changed = false;
  for (const message of incoming) {
    if (bySeq.has(message.seq)) continue;
    bySeq.set(message.seq, message);
    changed = true;
  }
  if (!changed) return current as ChatMessage[];
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The highest sequence number held (0 for none): where the stream resumes. */
export function lastSeq(messages: readonly ChatMessage[]): number {
  return messages.reduce((max, message) => Math.max(max, message.seq), 0);
}

/** The highest seq of the other party's messages (0 for none): what reading the page marks read. */
export function lastTheirsSeq(messages: readonly ChatMessage[]): number {
  return messages.reduce((max, message) => (message.mine ? max : Math.max(max, message.seq)), 0);
}

/** The seq of the user's last message if the other party has read it (where 'Seen' goes), else null. */
export function seenSeq(messages: readonly ChatMessage[], otherLastReadSeq: number): number | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.mine) return otherLastReadSeq >= message.seq ? message.seq : null;
  }
  return null;
}

/** A stream event's data as a message, or null when it is not one. */
export function parseChatMessage(data: string): ChatMessage | null {
  try {
    const value = JSON.parse(data) as Partial<ChatMessage> | null;
    if (!value || typeof value.seq !== 'number' || typeof value.id !== 'string' || typeof value.content !== 'string') return null;
    return {
      seq: value.seq,
      id: value.id,
      senderId: typeof value.senderId === 'string' ? value.senderId : '',
      mine: Boolean(value.mine),
      content: value.content,
      removed: Boolean(value.removed),
      createdAt: typeof value.createdAt === 'string' ? value.createdAt : new Date().toISOString(),
    };
  } catch {
    return null;
  }
}

/** The `seq` of a stream `read` event's data (`{"seq": n}`), or null for anything else. */
export function parseReadMark(data: string): number | null {
  try {
    const value = JSON.parse(data) as { seq?: unknown } | null;
    return value && typeof value.seq === 'number' && Number.isInteger(value.seq) && value.seq >= 0 ? value.seq : null;
  } catch {
    return null;
  }
}

/** Enter sends; Shift+Enter (and Enter while an input method composes text) is a new line. */
export function isSendKey(event: { key: string; shiftKey: boolean; isComposing?: boolean; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean }): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.isComposing && !event.altKey;
}

/** '2:05 PM' today, 'Nov 3, 2:05 PM' on another day. */
export function messageTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat('en-US', sameDay ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(date);
}
