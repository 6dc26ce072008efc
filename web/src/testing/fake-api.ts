import { vi } from 'vitest';

type Handler = (request: Request) => Response | Promise<Response>;

/** A JSON response. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The server's error shape. */
export function apiError(status: number, code: string, message: string): Response {
  return json({ code, message }, status);
}

/**
 * Stubs fetch with handlers keyed "METHOD /path" (the query string is not
 * part of the key). Anything else answers 404. Returns the mock, whose calls
 * hold the Requests.
 */
const seen = new WeakMap<object, Request[]>();

export function stubApi(handlers: Record<string, Handler>) {
  const requests: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    // An unread copy for the test to inspect (as often as it likes).
    requests.push(request.clone());
    const url = new URL(request.url);
    const handler = handlers[`${request.method} ${url.pathname}`];
    if (!handler) return apiError(404, 'not_found', `No stub for ${request.method} ${url.pathname}`);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  seen.set(fetchMock, requests);
  return fetchMock;
}

/** The requests made to one endpoint. */
export function callsTo(fetchMock: ReturnType<typeof stubApi>, method: string, pathname: string): Request[] {
  return (seen.get(fetchMock) ?? [])
    .filter((request) => request.method === method && new URL(request.url).pathname === pathname)
    .map((request) => request.clone());
}

export function quota(remaining: number | null, extra: { generative?: boolean; limit?: number } = {}) {
  const limit = extra.limit ?? 5;
  return {
    limit,
    used: remaining === null ? 0 : limit - remaining,
    remaining,
    unlimited: remaining === null,
    generative: extra.generative ?? false,
  };
}
