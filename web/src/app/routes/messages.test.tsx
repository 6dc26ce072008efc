import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContactRequest } from '@/resources/contact-requests/contact-requests';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const ID = '00000000-0000-4000-8000-0000000000c1';
const BASE = `/api/v1/contact-requests/${ID}`;

const contact: ContactRequest = {
  id: ID,
  photoId: null,
  contestantName: 'Eileen',
  requesterName: 'Sam',
  role: 'requester',
  rankAtRequest: 2,
  feeCents: 95_000,
  contestantShareCents: 71_250,
  platformShareCents: 23_750,
  messagePreview: 'Hello',
  paid: true,
  paymentStatus: 'paid',
  status: 'approved',
  expiresAt: null,
  closed: false,
  otherUserId: '00000000-0000-4000-8000-0000000000e1',
  createdAt: '2026-11-26T10:00:00Z',
};

function message(seq: number, mine: boolean, content: string) {
  return { seq, id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`, senderId: mine ? 'me' : 'her', mine, content, createdAt: '2026-11-26T10:00:00Z' };
}

/** An event stream that sends `events` and stays open until the page lets go of it. */
function eventStream(request: Request, events: ReturnType<typeof message>[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(': keep-alive\n\n'));
      for (const event of events) controller.enqueue(encoder.encode(`event: message\nid: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`));
      request.signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

beforeAll(async () => {
  await import('./messages');
}, 30_000);

describe('/messages/{requestId}', { timeout: 20_000 }, () => {
  it('shows the conversation with the other party’s name, live messages from the stream, Seen, and marks it read', async () => {
    const fetchMock = stubApi({
      [`GET ${BASE}`]: () => json(contact),
      [`GET ${BASE}/messages`]: () => json({ messages: [message(1, false, 'Hi Sam!'), message(2, true, 'Hello Eileen')], myLastReadSeq: 0, otherLastReadSeq: 2 }),
      // The stream replays seq 2 (already held) and brings seq 3.
      [`GET ${BASE}/messages/stream`]: (request) => eventStream(request, [message(2, true, 'Hello Eileen'), message(3, false, 'How are you?')]),
      [`POST ${BASE}/messages/read`]: () => new Response(null, { status: 204 }),
    });
    renderApp(`/messages/${ID}`, { user: 'signed-in' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Eileen' }, { timeout: 10_000 })).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Messages with Eileen' });
    expect(await within(log).findByText('How are you?')).toBeInTheDocument();
    expect(within(log).getAllByTestId('chat-message').map((node) => node.dataset.seq)).toEqual(['1', '2', '3']);
    expect(within(log).getByTestId('seen-mark').closest('[data-seq]')).toHaveAttribute('data-seq', '2');
    const [stream] = callsTo(fetchMock, 'GET', `${BASE}/messages/stream`);
    expect(stream!.headers.get('Last-Event-ID')).toBe('2');
    await waitFor(async () => {
      const reads = callsTo(fetchMock, 'POST', `${BASE}/messages/read`);
      expect(await reads.at(-1)!.json()).toEqual({ seq: 3 });
    });
    expect(screen.getByTestId('chat-box')).toHaveClass('h-[600px]');
  });

  it('moves Seen as soon as the stream says the other party has read', async () => {
    stubApi({
      [`GET ${BASE}`]: () => json(contact),
      [`GET ${BASE}/messages`]: () => json({ messages: [message(1, true, 'First'), message(2, true, 'Second')], myLastReadSeq: 0, otherLastReadSeq: 1 }),
      [`GET ${BASE}/messages/stream`]: (request) => {
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('event: read\ndata: {"seq":2}\n\n'));
            request.signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
          },
        });
        return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
      },
      [`POST ${BASE}/messages/read`]: () => new Response(null, { status: 204 }),
    });
    renderApp(`/messages/${ID}`, { user: 'signed-in' });
    const log = await screen.findByRole('log', { name: 'Messages with Eileen' }, { timeout: 10_000 });
    await waitFor(() => expect(within(log).getByTestId('seen-mark').closest('[data-seq]')).toHaveAttribute('data-seq', '2'));
  });

  it('reconnects after the stream drops, resuming after the last message it saw, with nothing twice', async () => {
    let connections = 0;
    const fetchMock = stubApi({
      [`GET ${BASE}`]: () => json(contact),
      [`GET ${BASE}/messages`]: () => json({ messages: [message(1, false, 'One')], myLastReadSeq: 1, otherLastReadSeq: 0 }),
      [`GET ${BASE}/messages/stream`]: (request) => {
        connections += 1;
        if (connections === 1) {
          // Sends seq 2, then the connection ends.
          const text = `id: 2\nevent: message\ndata: ${JSON.stringify(message(2, false, 'Two'))}\n\n`;
          return new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
        }
        // The server replays from Last-Event-ID: seq 2 again (a duplicate) and the missed seq 3.
        return eventStream(request, [message(2, false, 'Two'), message(3, false, 'Three')]);
      },
      [`POST ${BASE}/messages/read`]: () => new Response(null, { status: 204 }),
    });
    renderApp(`/messages/${ID}`, { user: 'signed-in' });
    const log = await screen.findByRole('log', {}, { timeout: 10_000 });
    expect(await within(log).findByText('Three', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(within(log).getAllByTestId('chat-message').map((node) => node.dataset.seq)).toEqual(['1', '2', '3']);
    const streams = callsTo(fetchMock, 'GET', `${BASE}/messages/stream`);
    expect(streams.map((request) => request.headers.get('Last-Event-ID'))).toEqual(['1', '2']);
  });

  it('sends on Enter, puts a new line on Shift+Enter, shows a failed message with Retry, and retries with the same id', async () => {
    let attempts = 0;
    const fetchMock = stubApi({
      [`GET ${BASE}`]: () => json(contact),
      [`GET ${BASE}/messages`]: () => json({ messages: [], myLastReadSeq: 0, otherLastReadSeq: 0 }),
      [`GET ${BASE}/messages/stream`]: (request) => eventStream(request, []),
      [`POST ${BASE}/messages`]: async (request) => {
        attempts += 1;
        if (attempts === 1) return apiError(500, 'internal_error', 'boom');
        const body = (await request.json()) as { id: string; content: string };
        return json({ ...message(1, true, body.content), id: body.id }, 201);
      },
    });
    const { user } = renderApp(`/messages/${ID}`, { user: 'signed-in' });
    const input = await screen.findByLabelText('Message', {}, { timeout: 10_000 });
    await user.type(input, '{Enter}');
    expect(await screen.findByText('Message cannot be empty')).toBeInTheDocument();
    await user.type(input, 'Line one{Shift>}{Enter}{/Shift}line two');
    expect(input).toHaveValue('Line one\nline two');
    await user.type(input, '{Enter}');
    // The box is free at once; the message waits in the list, marked.
    expect(input).toHaveValue('');
    expect(await screen.findByText('Failed to send message')).toBeInTheDocument();
    const log = screen.getByRole('log');
    const failed = within(log).getByTestId('outgoing-message');
    expect(failed).toHaveAttribute('data-status', 'failed');
    expect(failed).toHaveTextContent('Line one line two');
    expect(within(failed).getByTestId('message-status')).toHaveTextContent('Not sent');
    await user.click(within(failed).getByRole('button', { name: /^Retry/ }));
    await waitFor(() => expect(within(log).getAllByTestId('chat-message')).toHaveLength(1));
    expect(within(log).queryByTestId('outgoing-message')).toBeNull();
    expect(within(log).getByTestId('chat-message')).toHaveTextContent(/line two/);
    const sends = await Promise.all(callsTo(fetchMock, 'POST', `${BASE}/messages`).map((request) => request.json()));
    expect(sends).toHaveLength(2);
    expect(sends[0].content).toBe('Line one\nline two');
    expect(sends[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sends[1]).toEqual(sends[0]);
  });

  it('clears the box at Enter and keeps "ok" and "thanks" typed quickly as two messages, in order, each shown at once as Sending…', async () => {
    const answers: (() => void)[] = [];
    let seq = 0;
    const fetchMock = stubApi({
      [`GET ${BASE}`]: () => json(contact),
      [`GET ${BASE}/messages`]: () => json({ messages: [], myLastReadSeq: 0, otherLastReadSeq: 0 }),
      [`GET ${BASE}/messages/stream`]: (request) => eventStream(request, []),
      // A slow server: each send is answered only when the test says so.
      [`POST ${BASE}/messages`]: async (request) => {
        const body = (await request.json()) as { id: string; content: string };
        await new Promise<void>((resolve) => answers.push(resolve));
        seq += 1;
        return json({ ...message(seq, true, body.content), id: body.id }, 201);
      },
    });
    const { user } = renderApp(`/messages/${ID}`, { user: 'signed-in' });
    const input = await screen.findByLabelText('Message', {}, { timeout: 10_000 });
    await user.type(input, 'ok{Enter}');
    expect(input).toHaveValue('');
    await user.type(input, 'thanks{Enter}');
    expect(input).toHaveValue('');
    const log = screen.getByRole('log');
    const outgoing = within(log).getAllByTestId('outgoing-message');
    expect(outgoing.map((node) => within(node).getByTestId('message-content').textContent)).toEqual(['ok', 'thanks']);
    expect(outgoing.map((node) => within(node).getByTestId('message-status').textContent)).toEqual(['Sending…', 'Sending…']);
    // One at a time, in the order typed.
    await waitFor(() => expect(answers).toHaveLength(1));
    expect(callsTo(fetchMock, 'POST', `${BASE}/messages`)).toHaveLength(1);
    answers[0]!();
    await waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!();
    await waitFor(() => expect(within(log).getAllByTestId('chat-message')).toHaveLength(2));
    expect(within(log).getAllByTestId('message-content').map((node) => node.textContent)).toEqual(['ok', 'thanks']);
    expect(within(log).queryByTestId('outgoing-message')).toBeNull();
    const sends = await Promise.all(callsTo(fetchMock, 'POST', `${BASE}/messages`).map((request) => request.json()));
    expect(sends.map((body: { content: string }) => body.content)).toEqual(['ok', 'thanks']);
    expect(new Set(sends.map((body: { id: string }) => body.id)).size).toBe(2);
  });

  it('shows a closed conversation as such, with the input off', async () => {
    stubApi({
      [`GET ${BASE}`]: () => json({ ...contact, closed: true }),
      [`GET ${BASE}/messages`]: () => json({ messages: [message(1, false, 'Bye')], myLastReadSeq: 1, otherLastReadSeq: 0 }),
      [`GET ${BASE}/messages/stream`]: (request) => eventStream(request, []),
    });
    renderApp(`/messages/${ID}`, { user: 'signed-in' });
    expect(await screen.findByTestId('conversation-closed', {}, { timeout: 10_000 })).toHaveTextContent('This conversation is closed');
    expect(screen.getByLabelText('Message')).toBeDisabled();
  });

  it('goes home with the spec’s message for a request that is not approved', async () => {
    stubApi({
      [`GET ${BASE}`]: () => json({ ...contact, status: 'pending' }),
      [`GET ${BASE}/messages`]: () => apiError(403, 'not_approved', 'This contact request is not approved'),
    });
    const { router } = renderApp(`/messages/${ID}`, { user: 'signed-in' });
    expect(await screen.findByText('This contact request is not approved', {}, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('goes home with Contact request not found for someone else’s request', async () => {
    stubApi({
      [`GET ${BASE}`]: () => apiError(404, 'not_found', 'Contact request not found'),
      [`GET ${BASE}/messages`]: () => apiError(404, 'not_found', 'Contact request not found'),
    });
    const { router } = renderApp(`/messages/${ID}`, { user: 'signed-in' });
    expect(await screen.findByText('Contact request not found', {}, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('asks "Are you sure?" when the server does, sends the same message confirmed on yes, and shows a removed message as removed', async () => {
    const bodies: { id: string; content: string; confirm?: boolean }[] = [];
    const fetchMock = stubApi({
      [`GET ${BASE}`]: () => json(contact),
      [`GET ${BASE}/messages`]: () =>
        json({ messages: [{ ...message(1, false, ''), removed: true }], myLastReadSeq: 1, otherLastReadSeq: 0 }),
      [`GET ${BASE}/messages/stream`]: (request) => eventStream(request, []),
      [`POST ${BASE}/messages`]: async (request) => {
        const body = (await request.json()) as { id: string; content: string; confirm?: boolean };
        bodies.push(body);
        if (!body.confirm) return apiError(409, 'confirm_required', 'Are you sure? Your message has words that may hurt or offend. Send it anyway?');
        return json({ ...message(2, true, body.content), id: body.id }, 201);
      },
    });
    const { user } = renderApp(`/messages/${ID}`, { user: 'signed-in' });
    const log = await screen.findByRole('log', {}, { timeout: 10_000 });
    expect(await within(log).findByText('This message was removed')).toBeInTheDocument();
    expect(within(log).queryByRole('button', { name: /Report this message/ })).toBeNull();
    const input = screen.getByLabelText('Message');
    await user.type(input, 'You idiot{Enter}');
    const asked = await screen.findByRole('alertdialog', { name: 'Are you sure?' });
    expect(asked).toHaveTextContent('may hurt or offend');
    await user.click(within(asked).getByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(within(log).getAllByTestId('chat-message')).toHaveLength(2));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual({ id: bodies[0]!.id, content: 'You idiot', confirm: true });
    expect(callsTo(fetchMock, 'POST', `${BASE}/messages`)).toHaveLength(2);
  });

  it('offers report, block and leave; blocking asks first and closes the chat', async () => {
    let closed = false;
    const fetchMock = stubApi({
      [`GET ${BASE}`]: () => json({ ...contact, closed }),
      [`GET ${BASE}/messages`]: () => json({ messages: [message(1, false, 'Pay me outside the app')], myLastReadSeq: 1, otherLastReadSeq: 0 }),
      [`GET ${BASE}/messages/stream`]: (request) => eventStream(request, []),
      [`POST ${BASE}/block`]: () => {
        closed = true;
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderApp(`/messages/${ID}`, { user: 'signed-in' });
    const log = await screen.findByRole('log', {}, { timeout: 10_000 });
    expect(await within(log).findByRole('button', { name: 'Report this message from Eileen' })).toBeInTheDocument();
    const safety = screen.getByRole('group', { name: 'Safety' });
    expect(within(safety).getByRole('button', { name: 'Report this conversation' })).toBeInTheDocument();
    expect(within(safety).getByRole('button', { name: 'Report Eileen as a user' })).toBeInTheDocument();
    await user.click(within(safety).getByRole('button', { name: 'Block' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Block Eileen?' });
    expect(callsTo(fetchMock, 'POST', `${BASE}/block`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Block' }));
    expect(await screen.findByTestId('conversation-closed')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `${BASE}/block`)).toHaveLength(1);
  });
});
