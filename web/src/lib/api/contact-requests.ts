import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api, ApiError, unwrap, type ApiSchemas } from '@/lib/api-client';
import { servesApi, useSession } from '@/lib/session';

/**
 * The contact-request resource as several places need it: the inbox
 * (features/contact), the conversation (features/messages) and the side
 * menu's unread badge. Features never import each other, so the shared
 * types, keys and reads live here, like billing.
 */
export type ContactRequest = ApiSchemas['ContactRequest'];
export type UnreadSummary = ApiSchemas['UnreadSummary'];

export const contactRequestKeys = {
  all: ['contact-requests'] as const,
  /** Per user: another account signing in on this tab never sees the last one's inbox. */
  received: (userId: string) => [...contactRequestKeys.all, 'received', userId] as const,
  sent: (userId: string) => [...contactRequestKeys.all, 'sent', userId] as const,
  one: (userId: string, id: string) => [...contactRequestKeys.all, 'one', userId, id] as const,
  unread: (userId: string) => [...contactRequestKeys.all, 'unread', userId] as const,
};

/** A 4xx answer is the server's decision: asking again would not change it. */
export function retryServerErrors(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/** Resolves for a 2xx answer without a body (204), or throws the server's error as an `ApiError`. */
export async function noContent(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await call;
  if (response.ok) return;
  const record = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  throw new ApiError(
    response.status,
    typeof record.code === 'string' ? record.code : 'http_error',
    typeof record.message === 'string' ? record.message : `Request failed with status ${response.status}`,
  );
}

/** GET /api/v1/contact-requests/{id}: either party; 404 'Contact request not found' for anyone else. */
export function getContactRequest(id: string): Promise<ContactRequest> {
  return unwrap(api.GET('/api/v1/contact-requests/{id}', { params: { path: { id } } }));
}

export function useContactRequest(id: string) {
  const { session } = useSession();
  const userId = session?.user.id ?? '';
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.one(userId, id),
      queryFn: () => getContactRequest(id),
      enabled: Boolean(userId),
      retry: retryServerErrors,
    }),
  );
}

/**
 * The side menu's badge follows the user's event stream (features/messages
 * sets the counts as they change); only while that stream is down does it
 * ask every 30 s, and again whenever the window gets focus.
 */
export const UNREAD_POLL_MS = 30_000;

let eventsLive = false;
const liveListeners = new Set<() => void>();

/** Whether the user's event stream is open in this tab (set by its listener). */
export function setUserEventsLive(live: boolean) {
  if (live === eventsLive) return;
  eventsLive = live;
  for (const listener of liveListeners) listener();
}

/** Whether the user's event stream is open: the badge needs no poll then. */
export function useUserEventsLive(): boolean {
  return useSyncExternalStore(
    (listener) => {
      liveListeners.add(listener);
      return () => liveListeners.delete(listener);
    },
    () => eventsLive,
    () => false,
  );
}

/** GET /api/v1/contact-requests/unread: requests waiting for an answer and unread messages. */
export function useUnreadSummary() {
  const { session } = useSession();
  const userId = session?.user.id ?? '';
  const live = useUserEventsLive();
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.unread(userId),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/unread')),
      enabled: session !== null && servesApi(session),
      refetchInterval: live ? false : UNREAD_POLL_MS,
      refetchOnWindowFocus: 'always',
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}

/** The badge's number: requests to answer plus messages to read. */
export function unreadCount(summary: UnreadSummary | undefined): number {
  if (!summary) return 0;
  return Math.max(0, summary.awaitingAnswer) + Math.max(0, summary.unreadMessages);
}

/** '9+' past nine, so the badge stays small; nothing at zero. */
export function badgeLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > 9 ? '9+' : String(count);
}
