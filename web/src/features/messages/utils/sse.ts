/**
 * A reader of server-sent events (the text/event-stream format of the HTML
 * standard) over fetch. EventSource cannot send the Authorization header,
 * so the conversation's stream is read from a fetch response's body:
 * lines of `field: value`, `:` comments, and a blank line that ends an event.
 */

export type SseEvent = {
  /** The `event:` field; 'message' when there is none. */
  event: string;
  /** The `data:` lines, joined by newlines. */
  data: string;
  /** The last `id:` seen on the stream so far (it carries over to later events), or null. */
  id: string | null;
};

/**
 * An incremental parser: feed it text as it arrives, in any pieces (a line,
 * or even a CRLF, may be split across chunks), and it returns the events
 * each piece completed.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private eventType = '';
  private lastEventId: string | null = null;
  private sawData = false;
  private retry: number | null = null;

  /** The id to resume from (sent as Last-Event-ID after a reconnect). */
  get lastId(): string | null {
    return this.lastEventId;
  }

  /** The server's `retry:` hint in ms (an instance that stops asks for a quick reconnect), or null. */
  get retryMs(): number | null {
    return this.retry;
  }

  feed(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const cr = this.buffer.indexOf('\r');
      const lf = this.buffer.indexOf('\n');
      if (cr === -1 && lf === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (cr === this.buffer.length - 1) break;
        end = cr;
        next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else {
        end = lf;
        next = lf + 1;
      }
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(next);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** The stream ended: a lone CR left over ends its line; an event without its blank line is dropped (as the standard says). */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer.endsWith('\r')) {
      const event = this.line(this.buffer.slice(0, -1));
      if (event) events.push(event);
    }
    this.buffer = '';
    this.resetEvent();
    return events;
  }

  private resetEvent() {
    this.data = [];
    this.eventType = '';
    this.sawData = false;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      if (!this.sawData) {
        this.resetEvent();
        return null;
      }
      const event: SseEvent = { event: this.eventType || 'message', data: this.data.join('\n'), id: this.lastEventId };
      this.resetEvent();
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        this.sawData = true;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        // Only ASCII digits count (the standard); it sets the first reconnect's delay.
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
    return null;
  }
}

/**
 * Reads a response body to its end, handing each event to `onEvent`.
 * Resolves when the server closes the stream; rejects when the read fails
 * (a dropped connection, or the signal aborting it).
 */
export async function readSseStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: SseEvent) => void,
  parser: SseParser = new SseParser(),
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.feed(decoder.decode(value, { stream: true }))) onEvent(event);
    }
    for (const event of parser.feed(decoder.decode())) onEvent(event);
    for (const event of parser.end()) onEvent(event);
  } finally {
    reader.releaseLock();
  }
}

/** Waits `ms`, or less if the signal aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Reconnect delays: 1 s, 2 s, 4 s, 8 s, then 10 s at most (`first` from the server's `retry:` when it sent one). */
export function reconnectDelay(attempt: number, first = 1_000, max = 10_000): number {
  return Math.min(max, first * 2 ** Math.max(0, attempt));
}
