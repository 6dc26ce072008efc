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
 * A community member's standing (issue 41): an adult date of birth, the
 * terms and a confirmed address on file, as the test users of the API
 * harness have. A test of the community's questions passes its own.
 */
export const MEMBER_STANDING = {
  date_of_birth_on_file: true,
  adult: true,
  confirmed: true,
  terms_version: '1.0',
  terms_accepted: true,
  member: true,
};

/**
 * Stubs fetch with handlers keyed "METHOD /path" (the query string is not
 * part of the key). Anything else answers 404, except the signed-in user's
 * standing, a member's unless a handler says otherwise. Returns the mock,
 * whose calls hold the Requests.
 */
const seen = new WeakMap<object, Request[]>();

export function stubApi(given: Record<string, Handler>) {
  const handlers: Record<string, Handler> = {
    'GET /api/v1/account/standing': () => json(MEMBER_STANDING),
    ...given,
  };
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
