import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { servesApi, useSession } from '@/lib/session';
import { useIsMember } from '@/resources/account/community';
import { contactRequestKeys, setUserEventsLive } from '@/resources/contact-requests/contact-requests';
import { openUserEventStream, parseUnread } from '@/resources/messages/user-events';
import { pause, readSseStream, reconnectDelay, SseParser } from '../utils/sse';

export type UserEventsStatus = 'off' | 'connecting' | 'open' | 'reconnecting' | 'stopped';

/** Refusals another try would not change (a 401 is retried: the next try carries a refreshed token). */
function isFinal(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 403, 404, 405, 410, 422].includes(error.status);
}

/**
 * Listens on the signed-in user's own event stream (one per tab) and keeps
 * the contact-request queries current: `unread` events set the badge's
 * counts, `request` events (a request arrived, was answered or closed)
 * refresh the request lists. When the connection drops it reconnects after
 * 1, 2, 4, 8 and at most 10 s, resuming after the last message it saw
 * (`Last-Event-ID`); while it is down the badge falls back to its poll.
 */
export function useUserEvents(): UserEventsStatus {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const userId = session?.user.id ?? '';
  // Only members have requests and chats (the stream answers 403 otherwise).
  const member = useIsMember();
  const enabled = session !== null && servesApi(session) && member;
  const [status, setStatus] = useState<UserEventsStatus>('connecting');

  useEffect(() => {
    if (!enabled || !userId) return;
    const controller = new AbortController();
    const { signal } = controller;
    const lists = () => {
      void queryClient.invalidateQueries({ queryKey: contactRequestKeys.received() });
      void queryClient.invalidateQueries({ queryKey: contactRequestKeys.sent() });
      void queryClient.invalidateQueries({ queryKey: contactRequestKeys.ones() });
    };

    const run = async () => {
      let attempt = 0;
      let lastId: string | null = null;
      while (!signal.aborted) {
        const parser = new SseParser();
        try {
          const body = await openUserEventStream(lastId, signal);
          if (signal.aborted) return;
          setStatus('open');
          setUserEventsLive(true);
          attempt = 0;
          // What changed while no stream was open.
          lists();
          await readSseStream(
            body,
            (event) => {
              if (event.event === 'unread') {
                const summary = parseUnread(event.data);
                if (summary) queryClient.setQueryData(contactRequestKeys.unread(), summary);
              } else if (event.event === 'request') {
                lists();
              }
            },
            parser,
          );
        } catch (error) {
          if (signal.aborted) return;
          if (isFinal(error)) {
            setUserEventsLive(false);
            setStatus('stopped');
            return;
          }
        } finally {
          lastId = parser.lastId ?? lastId;
        }
        if (signal.aborted) return;
        setUserEventsLive(false);
        if (attempt > 0) setStatus('reconnecting');
        await pause(reconnectDelay(attempt, parser.retryMs ?? undefined), signal);
        attempt += 1;
      }
    };
    void run();
    return () => {
      controller.abort();
      setUserEventsLive(false);
    };
  }, [enabled, userId, queryClient]);

  return enabled ? status : 'off';
}
