import { describe, expect, it } from 'vitest';
import { readSseStream, reconnectDelay, SseParser, type SseEvent } from './sse';

function streamOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

describe('SseParser', () => {
  it('reads an event: its type, id and data, ended by a blank line', () => {
    const parser = new SseParser();
    expect(parser.feed('event: message\nid: 7\ndata: {"seq":7}\n\n')).toEqual([{ event: 'message', id: '7', data: '{"seq":7}' }]);
    expect(parser.lastId).toBe('7');
  });

  it('waits for the blank line before it hands an event on', () => {
    const parser = new SseParser();
    expect(parser.feed('event: message\nid: 1\ndata: a\n')).toEqual([]);
    expect(parser.feed('\n')).toEqual([{ event: 'message', id: '1', data: 'a' }]);
  });

  it('puts lines split across chunks back together, a CRLF split in two included', () => {
    const parser = new SseParser();
    const events: SseEvent[] = [];
    for (const chunk of ['ev', 'ent: mess', 'age\r', '\nid: 3\r\nda', 'ta: hel', 'lo\r', '\n\r', '\n']) events.push(...parser.feed(chunk));
    expect(events).toEqual([{ event: 'message', id: '3', data: 'hello' }]);
  });

  it('takes CR, LF and CRLF line ends alike', () => {
    const parser = new SseParser();
    expect(parser.feed('data: a\r\rdata: b\n\ndata: c\r\n\r\n')).toEqual([
      { event: 'message', id: null, data: 'a' },
      { event: 'message', id: null, data: 'b' },
      { event: 'message', id: null, data: 'c' },
    ]);
  });

  it('hands on several events from one chunk, in order', () => {
    const parser = new SseParser();
    const events = parser.feed('id: 1\ndata: one\n\nid: 2\ndata: two\n\n');
    expect(events.map((event) => [event.id, event.data])).toEqual([
      ['1', 'one'],
      ['2', 'two'],
    ]);
  });

  it('skips comments (the keep-alives) and blank lines with no data', () => {
    const parser = new SseParser();
    expect(parser.feed(': keep-alive\n\n: keep-alive\n\n')).toEqual([]);
    expect(parser.feed('event: message\n\n')).toEqual([]);
    // The type given above does not leak into the next event.
    expect(parser.feed('data: x\n\n')).toEqual([{ event: 'message', id: null, data: 'x' }]);
  });

  it('joins data lines with newlines and removes only one space after the colon', () => {
    const parser = new SseParser();
    expect(parser.feed('data:first\ndata:  second\ndata\n\n')).toEqual([{ event: 'message', id: null, data: 'first\n second\n' }]);
  });

  it('keeps the last id for the following events, and ignores an id with a NUL', () => {
    const parser = new SseParser();
    expect(parser.feed('id: 4\ndata: a\n\ndata: b\n\nid: 5\0\ndata: c\n\n').map((event) => event.id)).toEqual(['4', '4', '4']);
    expect(parser.lastId).toBe('4');
  });

  it('defaults the type to message and keeps other types', () => {
    const parser = new SseParser();
    expect(parser.feed('event: read\ndata: {}\n\ndata: {}\n\n').map((event) => event.event)).toEqual(['read', 'message']);
  });

  it('keeps the retry hint out of the events and ignores unknown fields', () => {
    const parser = new SseParser();
    expect(parser.retryMs).toBeNull();
    expect(parser.feed('retry: 10\nfoo: bar\ndata: ok\n\n')).toEqual([{ event: 'message', id: null, data: 'ok' }]);
    expect(parser.retryMs).toBe(10);
    // Not all digits: ignored, as the standard says.
    parser.feed('retry: 5s\n: this instance is stopping\n\n');
    expect(parser.retryMs).toBe(10);
  });

  it('drops an event the stream ended in the middle of', () => {
    const parser = new SseParser();
    parser.feed('id: 9\ndata: cut');
    expect(parser.end()).toEqual([]);
    expect(parser.feed('data: next\n\n')).toEqual([{ event: 'message', id: '9', data: 'next' }]);
  });
});

describe('readSseStream', () => {
  it('decodes the bytes (a character split between chunks too) and hands on each event', async () => {
    const bytes = new TextEncoder().encode('id: 1\nevent: message\ndata: {"content":"héllo"}\n\n: keep-alive\n\nid: 2\ndata: two\n\n');
    const split = bytes.indexOf(0xc3) + 1; // in the middle of 'é'
    const events: SseEvent[] = [];
    await readSseStream(streamOf([bytes.slice(0, split), bytes.slice(split)]), (event) => events.push(event));
    expect(events).toEqual([
      { event: 'message', id: '1', data: '{"content":"héllo"}' },
      { event: 'message', id: '2', data: 'two' },
    ]);
  });

  it('rejects when the connection fails mid-stream, after the events it got', async () => {
    const encoder = new TextEncoder();
    let pull = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pull += 1;
        if (pull === 1) controller.enqueue(encoder.encode('id: 1\ndata: a\n\n'));
        else controller.error(new TypeError('network error'));
      },
    });
    const events: SseEvent[] = [];
    await expect(readSseStream(body, (event) => events.push(event))).rejects.toThrow('network error');
    expect(events.map((event) => event.id)).toEqual(['1']);
  });
});

describe('reconnectDelay', () => {
  it('backs off from 1 s, doubling, up to 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map((attempt) => reconnectDelay(attempt))).toEqual([1000, 2000, 4000, 8000, 10000, 10000, 10000]);
    // The server's hint sets the first delay; the backoff grows from it.
    expect([0, 1].map((attempt) => reconnectDelay(attempt, 250))).toEqual([250, 500]);
  });
});
