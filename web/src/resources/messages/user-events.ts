import { api, ApiError, type ApiSchemas } from '@/lib/api-client';

/** The badge's counts, as the `unread` events carry them. */
export type UnreadSummary = ApiSchemas['UnreadSummary'];
/** A new message in one of the user's conversations (the `message` events; ids only). */
export type MessageEvent = ApiSchemas['MessageEvent'];

/**
 * GET /api/v1/events/stream with the session's token: the signed-in user's
 * own events (`unread`, `request`, `message`), resuming after
 * `lastEventId` (a message `seq`) when there is one. Resolves to the open
 * body; a refusal is the server's `ApiError`.
 */
export async function openUserEventStream(lastEventId: string | null, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const { data, error, response } = await api.GET('/api/v1/events/stream', {
    params: { header: lastEventId ? { 'Last-Event-ID': lastEventId } : undefined },
    headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' },
    parseAs: 'stream',
    signal,
  });
  if (response.ok && data) return data;
  const record = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  throw new ApiError(
    response.status,
    typeof record.code === 'string' ? record.code : 'http_error',
    typeof record.message === 'string' ? record.message : `The event stream answered ${response.status}`,
  );
}

/** The `unread` event's data, or null when it is not the counts. */
export function parseUnread(data: string): UnreadSummary | null {
  try {
    const value: unknown = JSON.parse(data);
    if (!value || typeof value !== 'object') return null;
    const { awaitingAnswer, unreadMessages } = value as Record<string, unknown>;
    if (typeof awaitingAnswer !== 'number' || typeof unreadMessages !== 'number') return null;
    return { awaitingAnswer, unreadMessages };
  } catch {
    return null;
  }
}
