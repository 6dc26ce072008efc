import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { contactRequestKeys, noContent, retryServerErrors, type ContactRequest } from '@/lib/api/contact-requests';
import { useSession } from '@/lib/session';

/**
 * Contact requests (issue 14): asking a contestant, and the contestant's
 * answers. The server prices every request from the entry's rank, holds
 * the card and decides; these hooks only send the user's choices.
 */
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
  const userId = session?.user.id ?? '';
  return useQuery(
    queryOptions({
      queryKey: [...contactRequestKeys.all, 'with', userId, photoId ?? ''] as const,
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/with/{photo_id}', { params: { path: { photo_id: photoId ?? '' } } })),
      enabled: Boolean(userId && photoId),
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}
export type { ContactRequest };

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
  const userId = session?.user.id ?? '';
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.received(userId),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/received')),
      enabled: Boolean(userId),
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}

/** GET /api/v1/contact-requests/sent: the user's own requests, any status. */
export function useSentRequests() {
  const { session } = useSession();
  const userId = session?.user.id ?? '';
  return useQuery(
    queryOptions({
      queryKey: contactRequestKeys.sent(userId),
      queryFn: () => unwrap(api.GET('/api/v1/contact-requests/sent')),
      enabled: Boolean(userId),
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
