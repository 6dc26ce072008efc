import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '@/lib/api/schema';
import { loadAuthClient, mayHaveSession } from '@/lib/auth-client';

/** Schemas of the server's OpenAPI document (generated: scripts/gen-api-types.sh). */
export type ApiSchemas = components['schemas'];

/** The server's one error shape: a stable machine code and a human message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/**
 * The typed client for the server's JSON API. Paths, parameters and bodies
 * are checked against the generated schema, so a contract change breaks the
 * build, not the user.
 */
export const api = createClient<paths>({
  baseUrl: window.location.origin,
  // Looked up per call so tests can stub fetch.
  fetch: (request) => globalThis.fetch(request),
});

/**
 * Adds the signed-in user's access token to a request. auth-js's
 * getSession() refreshes a token that is about to expire, so the header is
 * always current; signed out, the request goes without one (and without
 * loading auth-js, when there is certainly no session: see mayHaveSession).
 */
async function withSessionToken(request: Request): Promise<Request> {
  if (request.headers.has('Authorization')) return request;
  if (!mayHaveSession()) return request;
  const { data } = await (await loadAuthClient()).getSession();
  const token = data.session?.access_token;
  if (token) request.headers.set('Authorization', `Bearer ${token}`);
  return request;
}

/** Sends the session's token with every typed API call. */
export const authMiddleware: Middleware = {
  onRequest: ({ request }) => withSessionToken(request),
};

api.use(authMiddleware);

type Result<T> = { data?: T; error?: unknown; response: Response };

/** Resolves to the data of a successful call, or throws an `ApiError`. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  let code = 'http_error';
  let message = `Request failed with status ${response.status}`;
  if (error && typeof error === 'object') {
    const record = error as Record<string, unknown>;
    if (typeof record.code === 'string') code = record.code;
    if (typeof record.message === 'string') message = record.message;
  }
  throw new ApiError(response.status, code, message);
}

/** Resolves for a 2xx answer without a body (204), or throws the server's error as an `ApiError`. */
export async function noContent(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await call;
  if (response.ok) return;
  const record = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  throw new ApiError(
    response.status,
    typeof record.code === 'string' ? record.code : 'http_error',
    typeof record.message === 'string' ? record.message : `Request failed with status ${response.status}`,
  );
}
