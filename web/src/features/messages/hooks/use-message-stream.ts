import { useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { openMessageStream } from '@/resources/messages/messages';
import { parseChatMessage, parseReadMark, type ChatMessage } from '../utils/chat';
import { pause, readSseStream, reconnectDelay, SseParser } from '../utils/sse';

export type StreamStatus = 'connecting' | 'open' | 'reconnecting' | 'stopped';

type Options = {
  requestId: string;
  /** Listen only once the conversation's first page is in (and while the page shows it). */
  enabled: boolean;
  /** The last sequence number the page holds: the stream resumes after it (Last-Event-ID). */
  lastSeq: () => number;
  onMessage: (message: ChatMessage) => void;
  /** The other party has read up to this sequence number (the stream's `read` events). */
  onRead: (seq: number) => void;
  /** The server refused the stream for good (403, 404, 409): no more reconnects. */
  onRefused: (error: ApiError) => void;
};

/** Refusals that another try would not change (a 401 is retried: the next try carries a refreshed token). */
function isFinal(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 403, 404, 409, 410, 422].includes(error.status);
}

/**
 * Listens on the conversation's event stream and hands each message on.
 * When the connection drops or the server ends it, it reconnects after 1 s,
 * then 2, 4, 8 and at most 10 s (back to 1 s once a connection opened),
 * sending `Last-Event-ID` with the last sequence number the page holds, so
 * the server replays the gap from the database.
 */
export function useMessageStream({ requestId, enabled, lastSeq, onMessage, onRead, onRefused }: Options): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const callbacks = useRef({ lastSeq, onMessage, onRead, onRefused });
  useEffect(() => {
    callbacks.current = { lastSeq, onMessage, onRead, onRefused };
  });

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const { signal } = controller;

    const run = async () => {
      let attempt = 0;
      while (!signal.aborted) {
        const parser = new SseParser();
        try {
          const held = callbacks.current.lastSeq();
          const body = await openMessageStream(requestId, held > 0 ? String(held) : null, signal);
          if (signal.aborted) return;
          setStatus('open');
          attempt = 0;
          await readSseStream(
            body,
            (event) => {
              if (event.event === 'read') {
                const seq = parseReadMark(event.data);
                if (seq !== null) callbacks.current.onRead(seq);
                return;
              }
              if (event.event !== 'message') return;
              const message = parseChatMessage(event.data);
              if (message) callbacks.current.onMessage(message);
            },
            parser,
          );
        } catch (error) {
          if (signal.aborted) return;
          if (isFinal(error)) {
            setStatus('stopped');
            callbacks.current.onRefused(error);
            return;
          }
        }
        if (signal.aborted) return;
        // One drop is quietly mended; say so once reconnecting takes longer.
        if (attempt > 0) setStatus('reconnecting');
        await pause(reconnectDelay(attempt, parser.retryMs ?? undefined), signal);
        attempt += 1;
      }
    };
    void run();
    return () => controller.abort();
  }, [requestId, enabled]);

  return enabled ? status : 'connecting';
}
