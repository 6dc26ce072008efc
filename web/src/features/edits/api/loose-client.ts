import { api } from '@/lib/api-client';

/**
 * The edit endpoints through the app's API client (same middleware: the
 * bearer token when signed in; the device cookie goes along by itself),
 * untyped until the server's OpenAPI document names them. When
 * schema.d.ts has these paths, the calls switch to `api` itself.
 */
type LooseResult = { data?: unknown; error?: unknown; response: Response };
type LooseInit = { params?: { path?: Record<string, string>; query?: Record<string, string> }; body?: unknown };
type LooseClient = {
  GET: (path: string, init?: LooseInit) => Promise<LooseResult>;
  POST: (path: string, init?: LooseInit) => Promise<LooseResult>;
  PATCH: (path: string, init?: LooseInit) => Promise<LooseResult>;
};

export const looseApi = api as unknown as LooseClient;
