import { queryOptions, useQuery } from '@tanstack/react-query';
import { env } from '@/config/env';

/**
 * GET /auth/v1/settings: GoTrue's public settings. `external` says which ways
 * to sign in are on (email, phone, and each social provider by name: google,
 * apple, github or a configured OpenID Connect provider); `external_labels`
 * (our addition) names each enabled one for people ("GitHub", "Test ID").
 * auth-js has no call for it, and it is not part of the OpenAPI document, so
 * it is a plain fetch.
 */
export type AuthSettings = {
  external: Record<string, boolean>;
  external_labels?: Record<string, string>;
  /** Sign-in with a passkey (`/passkeys/*`) is on and the server has a relying party. */
  passkeys_enabled?: boolean;
};

/** A social provider the user can sign in with: its name for auth-js, its label for people. */
export type SocialProvider = { name: string; label: string };

/** Entries of `external` that are not social sign-in providers. */
const NOT_SOCIAL = new Set(['email', 'phone', 'anonymous_users', 'saml', 'web3']);

/** Labels for providers the server names without one (and for identities of a provider since turned off). */
const KNOWN_LABELS: Record<string, string> = { google: 'Google', apple: 'Apple', github: 'GitHub', email: 'Email' };

export const authSettingsKeys = {
  all: ['auth-settings'] as const,
};

export async function getAuthSettings(signal?: AbortSignal): Promise<AuthSettings> {
  const response = await globalThis.fetch(`${window.location.origin}${env.AUTH_PATH}/settings`, {
    signal,
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`GET ${env.AUTH_PATH}/settings answered ${response.status}`);
  const body = (await response.json()) as Partial<AuthSettings> | null;
  if (!body || typeof body.external !== 'object' || body.external === null) {
    throw new Error(`GET ${env.AUTH_PATH}/settings answered without "external"`);
  }
  return body as AuthSettings;
}

export function authSettingsQueryOptions() {
  return queryOptions({
    queryKey: authSettingsKeys.all,
    queryFn: ({ signal }) => getAuthSettings(signal),
    // A deployment's providers do not change while a page is open.
    staleTime: Infinity,
    // Without an answer the page simply offers email sign-in: no need to insist.
    retry: false,
  });
}

/** The label people see for a provider: the server's, else a known one, else the name capitalised. */
export function providerLabel(name: string, settings?: AuthSettings): string {
  const label = settings?.external_labels?.[name]?.trim();
  if (label) return label;
  return KNOWN_LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}

/** The enabled social providers, in the server's order. */
export function socialProviders(settings: AuthSettings | undefined): SocialProvider[] {
  if (!settings) return [];
  return Object.entries(settings.external)
    .filter(([name, enabled]) => enabled === true && !NOT_SOCIAL.has(name))
    .map(([name]) => ({ name, label: providerLabel(name, settings) }));
}

/**
 * The social providers to offer, and the settings for labels. While loading,
 * or when the settings cannot be read, there are none: email sign-in works
 * regardless, so a failure here shows nothing.
 */
export function useSocialProviders() {
  const query = useQuery(authSettingsQueryOptions());
  return { providers: socialProviders(query.data), settings: query.data, isPending: query.isPending };
}

/** Whether this browser can make and use passkeys (WebAuthn; only on HTTPS pages and localhost). */
export function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** Passkeys are offered when the server has them on and the browser can use them. */
export function usePasskeysAvailable(): boolean {
  const query = useQuery(authSettingsQueryOptions());
  return query.data?.passkeys_enabled === true && browserHasPasskeys();
}

