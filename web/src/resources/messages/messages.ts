import { api, ApiError, noContent, unwrap, type ApiSchemas } from '@/lib/api-client';

/**
 * The conversation of an approved contact request (issue 14). The database
 * is the source of truth: every message has a per-conversation sequence
 * number, the page loads them, then listens on a server-sent-events stream
 * that replays whatever came after the last one it saw.
 */
export type MessagePage = ApiSchemas['MessagePage'];
export type SendMessageForm = ApiSchemas['SendMessageForm'];
export type ChatMessage = ApiSchemas['ChatMessage'];

export const messageKeys = {
  first: (requestId: string) => ['messages', requestId, 'first'] as const,
};

/** GET …/messages?after={seq}: the messages after `after` (all of them from 0) and both read marks. */
export function getMessages(requestId: string, after = 0): Promise<MessagePage> {
  return unwrap(
    api.GET('/api/v1/contact-requests/{id}/messages', {
      params: { path: { id: requestId }, query: after > 0 ? { after } : {} },
    }),
  );
}

/** The server answers at most this many messages at a time. */
export const MESSAGES_PAGE_SIZE = 200;

/**
 * The whole conversation so far: pages of 200 until a short one (the read
 * marks from the last page). Past 50 pages the stream's replay brings the
 * rest.
 */
export async function getAllMessages(requestId: string): Promise<MessagePage> {
  let page = await getMessages(requestId);
  const messages = [...page.messages];
  for (let more = 1; more < 50 && page.messages.length >= MESSAGES_PAGE_SIZE; more += 1) {
    page = await getMessages(requestId, page.messages.at(-1)!.seq);
    messages.push(...page.messages);
  }
  return { ...page, messages };
}

/** POST …/messages: 201 stored, or 200 with the stored message when this client id was sent before. */
export function sendMessage(requestId: string, form: SendMessageForm) {
  return unwrap(api.POST('/api/v1/contact-requests/{id}/messages', { params: { path: { id: requestId } }, body: form }));
}

/** POST …/messages/read: read up to and including `seq` (204). */
export function markRead(requestId: string, seq: number): Promise<void> {
  return noContent(api.POST('/api/v1/contact-requests/{id}/messages/read', { params: { path: { id: requestId } }, body: { seq } }));
}

/**
 * GET …/messages/stream with the session's token (which EventSource could
 * not send), resuming after `lastEventId` when there is one. Resolves to
 * the open body; a refusal is the server's `ApiError`.
 */
export async function openMessageStream(requestId: string, lastEventId: string | null, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const { data, error, response } = await api.GET('/api/v1/contact-requests/{id}/messages/stream', {
    params: { path: { id: requestId }, header: lastEventId ? { 'Last-Event-ID': lastEventId } : undefined },
    headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' },
    parseAs: 'stream',
    signal,
  });
  if (response.ok && data) return data;
  const record = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  throw new ApiError(
    response.status,
    typeof record.code === 'string' ? record.code : 'http_error',
    typeof record.message === 'string' ? record.message : `The message stream answered ${response.status}`,
  );
}
