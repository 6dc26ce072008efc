import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { newIdempotencyKey } from '@/lib/checkout';
import { useSession } from '@/lib/session';
import { contactRequestKeys, retryServerErrors } from '@/resources/contact-requests/contact-requests';
import { getAllMessages, getMessages, markRead, messageKeys, sendMessage, type MessagePage } from '@/resources/messages/messages';
import { chatMessageError, lastSeq, lastTheirsSeq, mergeMessages, type ChatMessage, type OutgoingMessage } from '../utils/chat';
import { useMessageStream } from './use-message-stream';

/** `ready` once the first page is merged: the stream resumes after its last message. */
type State = { ready: boolean; messages: ChatMessage[]; myLastReadSeq: number; otherLastReadSeq: number };

type Action =
  | { type: 'page'; page: MessagePage }
  | { type: 'messages'; messages: ChatMessage[] }
  | { type: 'read'; seq: number }
  | { type: 'seen'; seq: number };

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'page': {
      const messages = mergeMessages(state.messages, action.page.messages);
      const myLastReadSeq = Math.max(state.myLastReadSeq, action.page.myLastReadSeq);
      const otherLastReadSeq = Math.max(state.otherLastReadSeq, action.page.otherLastReadSeq);
      if (state.ready && messages === state.messages && myLastReadSeq === state.myLastReadSeq && otherLastReadSeq === state.otherLastReadSeq) {
        return state;
      }
      return { ready: true, messages, myLastReadSeq, otherLastReadSeq };
    }
    case 'messages': {
      const messages = mergeMessages(state.messages, action.messages);
      return messages === state.messages ? state : { ...state, messages };
    }
    case 'read':
      return action.seq > state.myLastReadSeq ? { ...state, myLastReadSeq: action.seq } : state;
    case 'seen':
      return action.seq > state.otherLastReadSeq ? { ...state, otherLastReadSeq: action.seq } : state;
  }
}

/**
 * How often the conversation is read again while the page shows: the stream
 * carries new messages and the other party's read mark ('Seen') at once; this
 * catches up after a stream that dropped without saying so.
 */
export const READ_MARKS_POLL_MS = 10_000;

/** Whether the page is in front of the user (a hidden tab does not mark anything read). */
function pageVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}

/**
 * One conversation: its messages (loaded once, then merged from the stream,
 * the sends and a catch-up read, each seq once), the read marks, the
 * composer's text and the outbox of messages on their way. A failed send
 * keeps the text and the client id, so sending it again cannot post it twice.
 */
export function useConversation(
  requestId: string,
  { onRefused, onSendFailed }: { onRefused: (error: ApiError) => void; onSendFailed?: (error: unknown) => void },
) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const first = useQuery({
    queryKey: messageKeys.first(requestId),
    queryFn: () => getAllMessages(requestId),
    enabled: Boolean(session),
    retry: retryServerErrors,
    staleTime: Infinity,
    gcTime: 0,
  });
  const [state, dispatch] = useReducer(reducer, { ready: false, messages: [], myLastReadSeq: 0, otherLastReadSeq: 0 });
  const [closedBySend, setClosedBySend] = useState(false);
  const held = useRef(state.messages);
  useEffect(() => {
    held.current = state.messages;
  }, [state.messages]);

  useEffect(() => {
    if (first.data) dispatch({ type: 'page', page: first.data });
  }, [first.data]);

  const refusedRef = useRef(onRefused);
  const onSendFailedRef = useRef(onSendFailed);
  useEffect(() => {
    refusedRef.current = onRefused;
    onSendFailedRef.current = onSendFailed;
  });
  useEffect(() => {
    if (first.error instanceof ApiError && (first.error.status === 403 || first.error.status === 404)) refusedRef.current(first.error);
  }, [first.error]);

  const loaded = first.isSuccess && state.ready;
  const stream = useMessageStream({
    requestId,
    enabled: loaded,
    lastSeq: () => Math.max(lastSeq(held.current), lastSeq(first.data?.messages ?? [])),
    onMessage: (message) => dispatch({ type: 'messages', messages: [message] }),
    onRead: (seq) => dispatch({ type: 'seen', seq }),
    onRefused: (error) => {
      if (error.status === 409) setClosedBySend(true);
      else refusedRef.current(error);
    },
  });

  // A catch-up read: the other party's read mark for 'Seen', and anything a dropped stream missed.
  const catchUp = useCallback(async () => {
    try {
      dispatch({ type: 'page', page: await getMessages(requestId, lastSeq(held.current)) });
    } catch {
      // The next tick tries again; the stream carries the messages meanwhile.
    }
  }, [requestId]);
  useEffect(() => {
    if (!loaded) return;
    const timer = setInterval(() => {
      if (pageVisible()) void catchUp();
    }, READ_MARKS_POLL_MS);
    const onFocus = () => void catchUp();
    window.addEventListener('focus', onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }, [loaded, catchUp]);

  // Messages shown are messages read: mark up to the newest one the other party sent.
  const marking = useRef(0);
  const [visible, setVisible] = useState(pageVisible);
  useEffect(() => {
    const onChange = () => setVisible(pageVisible());
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  const newestTheirs = lastTheirsSeq(state.messages);
  useEffect(() => {
    if (!loaded || !visible) return;
    if (newestTheirs <= state.myLastReadSeq || newestTheirs <= marking.current) return;
    const seq = lastSeq(held.current);
    marking.current = seq;
    markRead(requestId, seq)
      .then(() => {
        dispatch({ type: 'read', seq });
        void queryClient.invalidateQueries({ queryKey: contactRequestKeys.unread() });
      })
      .catch(() => {
        // Marked again with the next message or visit.
        marking.current = 0;
      });
  }, [loaded, visible, newestTheirs, state.myLastReadSeq, requestId, queryClient]);

  // The composer and the outbox: a message leaves the box at Enter and shows
  // at once as "Sending…", keyed by its client id; sends go one at a time, in
  // the order typed, so "ok" Enter "thanks" Enter arrives as two messages in
  // that order. A failed one stays, marked, with Retry (the same id, so the
  // server stores it once even if the first try did reach it).
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  const [outbox, setOutbox] = useState<OutgoingMessage[]>([]);
  // A message the server asked "Are you sure?" about (409 confirm_required):
  // out of the outbox until the sender answers.
  const [asking, setAsking] = useState<{ item: OutgoingMessage; question: string } | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());

  const changeDraft = (value: string) => {
    setDraft(value);
    if (draftError) setDraftError(null);
  };

  const deliver = (item: OutgoingMessage) => {
    queue.current = queue.current.then(async () => {
      try {
        const message = await sendMessage(requestId, { id: item.id, content: item.content, confirm: item.confirm ?? false });
        dispatch({ type: 'messages', messages: [message] });
        setOutbox((list) => list.filter((entry) => entry.id !== item.id));
      } catch (error) {
        if (error instanceof ApiError && error.code === 'confirm_required') {
          setOutbox((list) => list.filter((entry) => entry.id !== item.id));
          setAsking({ item, question: error.message });
          return;
        }
        if (error instanceof ApiError && error.code === 'conversation_closed') setClosedBySend(true);
        const reason = error instanceof ApiError && error.code !== 'http_error' && error.status < 500 ? error.message : null;
        setOutbox((list) => list.map((entry) => (entry.id === item.id ? { ...entry, status: 'failed', error: reason } : entry)));
        onSendFailedRef.current?.(error);
      }
    });
    return queue.current;
  };

  /** Enter or the Send button: 'invalid' leaves the text in the box with the reason; 'queued' has taken it. */
  const send = (): 'queued' | 'invalid' => {
    const content = draft;
    const problem = chatMessageError(content);
    if (problem) {
      setDraftError(problem);
      return 'invalid';
    }
    const item: OutgoingMessage = { id: newIdempotencyKey(), content, createdAt: new Date().toISOString(), status: 'sending', error: null };
    setOutbox((list) => [...list, item]);
    setDraft('');
    setDraftError(null);
    void deliver(item);
    return 'queued';
  };

  /** Sends a failed message again, with its id. */
  const retry = (id: string) => {
    const item = outbox.find((entry) => entry.id === id);
    if (!item || item.status !== 'failed') return;
    const again: OutgoingMessage = { ...item, status: 'sending', error: null };
    setOutbox((list) => list.map((entry) => (entry.id === id ? again : entry)));
    void deliver(again);
  };

  /** "Send anyway": the same message (and id) again, confirmed. */
  const confirmSend = () => {
    if (!asking) return;
    const again: OutgoingMessage = { ...asking.item, status: 'sending', error: null, confirm: true };
    setAsking(null);
    setOutbox((list) => [...list, again]);
    void deliver(again);
  };

  /** "Edit message": the words go back into the box, nothing is sent. */
  const cancelSend = () => {
    if (!asking) return;
    setDraft(asking.item.content);
    setAsking(null);
  };

  // A message the stream (or a catch-up read) brought back is stored: its outbox copy goes.
  const pending = outbox.filter((entry) => !state.messages.some((message) => message.id === entry.id));

  return {
    first,
    messages: state.messages,
    myLastReadSeq: state.myLastReadSeq,
    otherLastReadSeq: state.otherLastReadSeq,
    streamStatus: stream,
    closedBySend,
    draft,
    draftError,
    changeDraft,
    send,
    outbox: pending,
    retry,
    asking: asking?.question ?? null,
    confirmSend,
    cancelSend,
  };
}
