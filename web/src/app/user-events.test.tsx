import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { contactRequestKeys, type ContactRequest, UNREAD_POLL_MS } from '@/resources/contact-requests/contact-requests';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const EVENTS = '/api/v1/events/stream';
const UNREAD = '/api/v1/contact-requests/unread';

const pending: ContactRequest = {
  id: '00000000-0000-4000-8000-0000000000d1',
  photoId: '00000000-0000-4000-8000-0000000000a1',
  contestantName: 'Eileen',
  requesterName: 'Sam',
  role: 'contestant',
  rankAtRequest: 2,
  feeCents: 95_000,
  contestantShareCents: 71_250,
  platformShareCents: 23_750,
  messagePreview: 'Hello Eileen, I love your photo!',
  paid: true,
  paymentStatus: 'paid',
  status: 'pending',
  expiresAt: '2026-12-03T10:00:00Z',
  closed: false,
  otherUserId: '00000000-0000-4000-8000-0000000000e1',
  createdAt: '2026-11-26T10:00:00Z',
};

/** A stream the test writes events to, open until the page lets go of it (or the test ends it). */
function controlledStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const respond = (request: Request) => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        c.enqueue(encoder.encode(': keep-alive\n\n'));
        request.signal.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  };
  return {
    respond,
    send(event: string, data: unknown, id?: number) {
      controller!.enqueue(encoder.encode(`event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`));
    },
    end() {
      controller!.close();
    },
  };
}

beforeAll(async () => {
  await import('@/app/routes/contestant-requests');
}, 30_000);

describe('the user’s event stream', { timeout: 20_000 }, () => {
  it('drives the unread badge and the requests list live, without polling while it is open', async () => {
    const stream = controlledStream();
    let received: ContactRequest[] = [];
    const fetchMock = stubApi({
      [`GET ${EVENTS}`]: (request) => stream.respond(request),
      'GET /api/v1/contact-requests/received': () => json(received),
      'GET /api/v1/contact-requests/sent': () => json([]),
      [`GET ${UNREAD}`]: () => json({ awaitingAnswer: 0, unreadMessages: 0 }),
    });
    const { queryClient } = renderApp('/contestant-requests', { user: 'signed-in' });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', EVENTS)).toHaveLength(1));
    const unread = () => queryClient.getQueryCache().find({ queryKey: contactRequestKeys.unread() });
    // Open: the badge's query does not poll.
    await waitFor(() => expect(unread()?.observers[0]?.options.refetchInterval).toBe(false));
    const asked = callsTo(fetchMock, 'GET', UNREAD).length;

    // A request arrives: the stream says so and brings the new counts.
    received = [pending];
    stream.send('request', { id: pending.id, role: 'contestant', status: 'pending', paid: true, closed: false });
    stream.send('unread', { awaitingAnswer: 1, unreadMessages: 2 });
    expect(await screen.findByTestId('contact-unread-badge')).toHaveTextContent('3');
    const card = await screen.findByTestId('received-request', {}, { timeout: 10_000 });
    expect(within(card).getByRole('heading', { name: 'Sam' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', UNREAD)).toHaveLength(asked);

    stream.send('unread', { awaitingAnswer: 0, unreadMessages: 0 });
    await waitFor(() => expect(screen.queryByTestId('contact-unread-badge')).not.toBeInTheDocument());
  });

  it('falls back to the poll while the stream is down, and resumes after the last message it saw', async () => {
    const first = controlledStream();
    let calls = 0;
    const fetchMock = stubApi({
      [`GET ${EVENTS}`]: (request) => {
        calls += 1;
        return calls === 1 ? first.respond(request) : controlledStream().respond(request);
      },
      'GET /api/v1/contact-requests/received': () => json([]),
      'GET /api/v1/contact-requests/sent': () => json([]),
      [`GET ${UNREAD}`]: () => json({ awaitingAnswer: 0, unreadMessages: 0 }),
    });
    const { queryClient } = renderApp('/contestant-requests', { user: 'signed-in' });
    const unread = () => queryClient.getQueryCache().find({ queryKey: contactRequestKeys.unread() });
    await waitFor(() => expect(unread()?.observers[0]?.options.refetchInterval).toBe(false));
    first.send('message', { seq: 41, id: 'm41', contactRequestId: pending.id, senderId: 'her', mine: false, createdAt: pending.createdAt }, 41);
    first.end();
    // Down: the badge polls again.
    await waitFor(() => expect(unread()?.observers[0]?.options.refetchInterval).toBe(UNREAD_POLL_MS));
    // Back (after the 1 s pause): resumed after message 41, no poll.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', EVENTS)).toHaveLength(2), { timeout: 5_000 });
    expect(callsTo(fetchMock, 'GET', EVENTS)[1]!.headers.get('Last-Event-ID')).toBe('41');
    await waitFor(() => expect(unread()?.observers[0]?.options.refetchInterval).toBe(false));
  });
});
