import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api, ApiError, noContent, unwrap, type ApiSchemas } from '@/lib/api-client';
import { servesApi, useSession } from '@/lib/session';
import { useIsMember } from '@/resources/account/community';

/**
 * The contact-request resource: the inbox and the requests the user sent
 * (features/contact), the conversation's request (features/messages), the
 * side menu's unread badge, and asking a contestant (issue 14). The server
 * prices every request from the entry's rank, holds the card and decides;
 * these hooks only send the user's choices.
 */
export type ContactRequest = ApiSchemas['ContactRequest'];
export type UnreadSummary = ApiSchemas['UnreadSummary'];

export const contactRequestKeys = {
  all: ['contact-requests'] as const,
  received: () => [...contactRequestKeys.all, 'received'] as const,
  sent: () => [...contactRequestKeys.all, 'sent'] as const,
  /** Every request read one at a time (the conversation's), for invalidating them together. */
  ones: () => [...contactRequestKeys.all, 'one'] as const,
  one: (id: string) => [...contactRequestKeys.ones(), id] as const,
  unread: () => [...contactRequestKeys.all, 'unread'] as const,
  /** What Contact on one leaderboard entry does for the caller. */
  withEntry: (photoId: string | null) => [...contactRequestKeys.all, 'with', photoId ?? ''] as const,
  /** The same for a page of entries (the leaderboard's buttons). */
  withEntries: (photoIds: readonly string[]) => [...contactRequestKeys.all, 'with-entries', ...photoIds] as const,
};

/** A 4xx answer is the server's decision: asking again would not change it. */
export function retryServerErrors(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/** GET /api/v1/contact-requests/{id}: either party; 404 'Contact request not found' for anyone else. */
export function getContactRequest(id: string): Promise<ContactRequest> {
  return unwrap(api.GET('/api/v1/contact-requests/{id}', { params: { path: { id } } }));
}

export function useContactRequest(id: string) {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.one(id),
      queryFn: () => getContactRequest(id),
      enabled: Boolean(session),
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
  const live = useUserEventsLive();
  // Only members have requests and chats; anyone else would get 403 `age_required` and the like.
  const member = useIsMember();
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.unread(),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/unread')),
      enabled: session !== null && servesApi(session) && member,
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

export type ContactRequestForm = ApiSchemas['ContactRequestForm'];
export type EntryContact = ApiSchemas['EntryContact'];

/**
 * GET /api/v1/contact-requests/with/{photoId}: what Contact on this entry
 * does for the caller, as the server decides it: a new request (`none`),
 * the request still waiting for the contestant (`waiting`), or the open
 * chat (`chatting`).
 */
export function useEntryContact(photoId: string | null) {
  const { session } = useSession();
  const member = useIsMember();
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.withEntry(photoId),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/with/{photo_id}', { params: { path: { photo_id: photoId ?? '' } } })),
      enabled: Boolean(session && photoId && member),
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}

export type EntryContactOf = ApiSchemas['EntryContactOf'];

/** The server's `photoIds` limit: a leaderboard page's largest size. */
export const MAX_ENTRY_CONTACTS = 100;

/**
 * GET /api/v1/contact-requests/with?photoIds=: what Contact does for the
 * caller on each entry of a page, by photo id (signed in only; nothing for
 * an empty page). The leaderboard's pages are the same for every reader, so
 * what concerns the reader comes from here.
 */
export function useEntryContacts(photoIds: readonly string[]) {
  const { session } = useSession();
  const member = useIsMember();
  const ids = photoIds.slice(0, MAX_ENTRY_CONTACTS);
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.withEntries(ids),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/with', { params: { query: { photoIds: ids.join(',') } } })),
      enabled: session !== null && servesApi(session) && ids.length > 0 && member,
      select: (entries): ReadonlyMap<string, EntryContactOf> => new Map(entries.map((entry) => [entry.photoId, entry])),
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}

/** POST /api/v1/contact-requests: 201 new, or 200 when an unpaid request to that contestant is refreshed. */
export function useCreateContactRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: ContactRequestForm) => unwrap(api.POST('/api/v1/contact-requests', { body: form })),
    // Not awaited: the caller's toast must not wait for the refetch that
    // moves its card away (a caller unmounted by then gets no callback).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: contactRequestKeys.all }),
  });
}

/** GET /api/v1/contact-requests/received: the contestant's inbox (paid pending, and approved). */
export function useReceivedRequests() {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.received(),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/received')),
      enabled: Boolean(session),
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}

/** GET /api/v1/contact-requests/sent: the user's own requests, any status. */
export function useSentRequests() {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.sent(),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/sent')),
      enabled: Boolean(session),
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}

export type Decision = { id: string; approve: boolean };

/** Approve (the hold is captured, the chat opens) or deny (the hold is released); 409 `already_decided`. */
export function useDecideRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve }: Decision) => {
      const options = { params: { path: { id } } };
      return unwrap(
        approve
          ? api.POST('/api/v1/contact-requests/{id}/approve', options)
          : api.POST('/api/v1/contact-requests/{id}/deny', options),
      );
    },
    // Not awaited: the caller's toast must not wait for the refetch that
    // moves its card away (a caller unmounted by then gets no callback).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: contactRequestKeys.all }),
  });
}

/** POST /api/v1/contact-requests/{id}/block: 204; the requester's open requests are denied and chats close. */
export function useBlockRequester() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => noContent(api.POST('/api/v1/contact-requests/{id}/block', { params: { path: { id } } })),
    // Not awaited: the caller's toast must not wait for the refetch that
    // moves its card away (a caller unmounted by then gets no callback).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: contactRequestKeys.all }),
  });
}

export type ReportRequesterForm = ApiSchemas['ReportRequesterForm'];
export type Report = { id: string; reason: string };

/**
 * POST /api/v1/contact-requests/{id}/report: 204; the requester is blocked (as
 * Block does) and the admins are told. 409 when this request was reported
 * before, 422 for a missing or too long reason.
 */
export function useReportRequester() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: Report) =>
      noContent(api.POST('/api/v1/contact-requests/{id}/report', { params: { path: { id } }, body: { reason } satisfies ReportRequesterForm })),
    // Not awaited: the caller's toast must not wait for the refetch that
    // moves its card away (a caller unmounted by then gets no callback).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: contactRequestKeys.all }),
  });
}

/**
 * POST /api/v1/contact-requests/{id}/leave (either party): 204. A pending
 * request is withdrawn (its hold released, nothing charged); an approved
 * conversation closes for both (the captured fee stays captured).
 */
export function useLeaveConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => noContent(api.POST('/api/v1/contact-requests/{id}/leave', { params: { path: { id } } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: contactRequestKeys.all }),
  });
}
