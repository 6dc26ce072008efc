import type { GoTrueClient, GoTrueMFAApi, OAuthResponse, SignInWithOAuthCredentials, Subscription } from '@supabase/auth-js';
import { env } from '@/config/env';

/**
 * The part of the auth client the app uses. Components depend on this rather
 * than on the concrete class, so tests can hand the SessionProvider a double.
 */
export type SessionClient = Pick<
  GoTrueClient,
  | 'getSession'
  | 'onAuthStateChange'
  | 'signOut'
  | 'signInWithPassword'
  | 'signUp'
  | 'resetPasswordForEmail'
  | 'updateUser'
  | 'reauthenticate'
  | 'resend'
  | 'refreshSession'
  | 'getUserIdentities'
  | 'unlinkIdentity'
  | 'mfa'
  | 'signInWithPasskey'
  | 'registerPasskey'
  | 'passkey'
> & {
  /** A redirect to the provider, which comes back to `options.redirectTo`. */
  signInWithOAuth: (credentials: OAuthCredentials) => Promise<OAuthResponse>;
  /** Only the OAuth form (a redirect to the provider); the ID-token form is not used. */
  linkIdentity: (credentials: OAuthCredentials) => Promise<OAuthResponse>;
};

/**
 * auth-js's OAuth credentials with any provider name: its `Provider` type
 * lists GoTrue's built-in providers only, and the server also offers the
 * OpenID Connect providers it is configured with under their own names.
 */
export type OAuthCredentials = Omit<SignInWithOAuthCredentials, 'provider'> & { provider: string };

/** Where auth-js keeps the session (its default key, which we do not change). */
export const SESSION_STORAGE_KEY = 'supabase.auth.token';

let loading: Promise<GoTrueClient> | undefined;
let loaded = false;
let announce: (client: GoTrueClient) => void = () => {};
const ready = new Promise<GoTrueClient>((resolve) => {
  announce = resolve;
});

/**
 * The one auth client of the app: the official GoTrue client talking to our
 * own server's GoTrue-compatible API under /auth/v1. auth-js is about 21 KB
 * gzipped and the home page of a signed-out visitor needs none of it, so it
 * is a chunk of its own, fetched on first use (see `mayHaveSession`). Made
 * once; merely importing this module starts no refresh timer. With no stored
 * session it makes no network request.
 */
export function loadAuthClient(): Promise<GoTrueClient> {
  loading ??= import('@supabase/auth-js').then(({ AuthClient }) => {
    const client = new AuthClient({
      url: `${window.location.origin}${env.AUTH_PATH}`,
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl: true,
      flowType: 'pkce',
      // signInWithPasskey, registerPasskey and passkey.*: experimental in auth-js, built on our server.
      experimental: { passkey: true },
    });
    loaded = true;
    announce(client);
    return client;
  });
  return loading;
}

/** Resolves when the auth client exists, whoever asked for it first (it loads nothing itself). */
export function whenAuthClientLoaded(): Promise<GoTrueClient> {
  return ready;
}

let appClient: SessionClient | undefined;

/** The app's SessionClient: auth-js behind `createLazySessionClient`, made once. */
export function getSessionClient(): SessionClient {
  appClient ??= createLazySessionClient();
  return appClient;
}

/**
 * False only when there is certainly no session: auth-js is not running yet,
 * local storage works and holds neither a session nor a PKCE verifier, and the
 * address carries no auth answer (a PKCE `code`, tokens or an error) for
 * auth-js to read. Then the page can be drawn signed out, and API calls go
 * without a token, before auth-js has loaded. auth-js keeps a session in
 * memory where storage fails, so once it runs it is always asked.
 */
export function mayHaveSession(): boolean {
  if (loaded) return true;
  try {
    const storage = window.localStorage;
    if (storage.getItem(SESSION_STORAGE_KEY) !== null) return true;
    if (storage.getItem(`${SESSION_STORAGE_KEY}-code-verifier`) !== null) return true;
  } catch {
    return true;
  }
  const { search, hash } = window.location;
  return /[?&#](code|access_token|refresh_token|error|error_description)=/.test(`${search}${hash}`);
}

/**
 * A SessionClient that loads auth-js on its first call and then passes every
 * call on to it, so code that holds a client need not wait for the chunk.
 * `onAuthStateChange` subscribes once auth-js is there (auth-js then reports
 * the current session, INITIAL_SESSION, as it does to any new listener).
 */
export function createLazySessionClient(load: () => Promise<GoTrueClient> = loadAuthClient): SessionClient {
  const mfa = lazyApi<GoTrueMFAApi>(async () => (await load()).mfa, {
    webauthn: lazyApi<GoTrueMFAApi['webauthn']>(async () => (await load()).mfa.webauthn),
  });
  const passkey = lazyApi<GoTrueClient['passkey']>(async () => (await load()).passkey);

  const onAuthStateChange = ((callback: Parameters<GoTrueClient['onAuthStateChange']>[0]) => {
    let inner: Subscription | undefined;
    let active = true;
    void load().then((client) => {
      if (active) inner = client.onAuthStateChange(callback).data.subscription;
    });
    const subscription: Subscription = {
      id: 'lazy',
      callback,
      unsubscribe: () => {
        active = false;
        inner?.unsubscribe();
      },
    };
    return { data: { subscription } };
  }) as GoTrueClient['onAuthStateChange'];

  return {
    getSession: async () => (await load()).getSession(),
    onAuthStateChange,
    signOut: async (options) => (await load()).signOut(options),
    signInWithPassword: async (credentials) => (await load()).signInWithPassword(credentials),
    signUp: async (credentials) => (await load()).signUp(credentials),
    resetPasswordForEmail: async (email, options) => (await load()).resetPasswordForEmail(email, options),
    updateUser: async (attributes, options) => (await load()).updateUser(attributes, options),
    reauthenticate: async () => (await load()).reauthenticate(),
    resend: async (credentials) => (await load()).resend(credentials),
    refreshSession: async (current) => (await load()).refreshSession(current),
    signInWithOAuth: async (credentials) => (await load()).signInWithOAuth(credentials as SignInWithOAuthCredentials),
    linkIdentity: async (credentials) => (await load()).linkIdentity(credentials as SignInWithOAuthCredentials),
    getUserIdentities: async () => (await load()).getUserIdentities(),
    unlinkIdentity: async (identity) => (await load()).unlinkIdentity(identity),
    signInWithPasskey: async (credentials) => (await load()).signInWithPasskey(credentials),
    registerPasskey: async (credentials) => (await load()).registerPasskey(credentials),
    mfa,
    passkey,
  };
}

/**
 * An auth-js API object (`mfa`, `passkey`) whose every method first loads
 * auth-js; `nested` are sub-APIs passed through as they are.
 */
function lazyApi<T extends object>(api: () => Promise<T>, nested: Record<string, unknown> = {}): T {
  return new Proxy({} as T, {
    get: (_target, name: string) => {
      if (name === 'then') return undefined; // not a promise
      if (name in nested) return nested[name];
      return async (...args: unknown[]) => {
        const methods = (await api()) as unknown as Record<string, (...a: unknown[]) => unknown>;
        return methods[name](...args);
      };
    },
  });
}
