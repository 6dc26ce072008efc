import type { Factor } from '@supabase/auth-js';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionClient } from '@/lib/auth-client';
import { useSession } from '@/lib/session';

export const factorKeys = {
  all: ['account', 'factors'] as const,
};

/** The user's second factors (authenticator apps and security keys), read fresh from GET /auth/v1/user. */
export function factorsQueryOptions(client: SessionClient) {
  return queryOptions({
    queryKey: factorKeys.all,
    queryFn: async (): Promise<Factor[]> => {
      const { data, error } = await client.mfa.listFactors();
      if (error) throw error;
      return data.all.filter((factor) => factor.factor_type === 'totp' || factor.factor_type === 'webauthn');
    },
  });
}

export function useFactors() {
  const { client } = useSession();
  return useQuery(factorsQueryOptions(client));
}

/**
 * auth-js hands the server's SVG over as `data:image/svg+xml;utf-8,<svg…>`,
 * unescaped, which browsers cut at the first `#` (a colour): escape it.
 */
export function svgDataUrl(qrCode: string): string {
  const svg = qrCode.startsWith('data:') ? qrCode.slice(qrCode.indexOf(',') + 1) : qrCode;
  if (!svg.trimStart().startsWith('<')) return qrCode;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export type Enrollment = { id: string; qrCode: string; secret: string; uri: string };

/** POST /factors: a new, unverified TOTP factor with its QR code and secret. */
export function useEnrollFactor() {
  const { client } = useSession();
  return useMutation({
    mutationFn: async (): Promise<Enrollment> => {
      const { data, error } = await client.mfa.enroll({ factorType: 'totp', issuer: 'PrettyScore' });
      if (error) throw error;
      return { id: data.id, qrCode: svgDataUrl(data.totp.qr_code), secret: data.totp.secret, uri: data.totp.uri };
    },
  });
}

/** Challenge + verify: the factor becomes verified and the session aal2. */
export function useVerifyFactor() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ factorId, code }: { factorId: string; code: string }) => {
      const { error } = await client.mfa.challengeAndVerify({ factorId, code });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorKeys.all }),
  });
}

/** DELETE /factors/{id}: a verified factor can only go from an aal2 session. */
export function useUnenrollFactor() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (factorId: string) => {
      const { error } = await client.mfa.unenroll({ factorId });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: factorKeys.all }),
  });
}

/** Where the browser's WebAuthn calls run: the server checks against its own configuration, auth-js asks for these. */
function relyingParty() {
  return { rpId: window.location.hostname, rpOrigins: [window.location.origin] };
}

/**
 * A security key (or a passkey) as a second factor: enrol a WebAuthn factor,
 * have the browser create its credential, and verify it (the session becomes
 * aal2). `friendlyName` must be new among the user's factors. A cancelled or
 * failed prompt removes the half-made factor again.
 */
export function useAddSecurityKey() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (friendlyName: string) => {
      const enrolled = await client.mfa.enroll({ factorType: 'webauthn', friendlyName });
      if (enrolled.error) throw enrolled.error;
      const factorId = enrolled.data.id;
      const created = await client.mfa.webauthn.challenge({ factorId, webauthn: relyingParty(), friendlyName });
      if (created.error) {
        await client.mfa.unenroll({ factorId }).catch(() => undefined);
        throw created.error;
      }
      const verified = await client.mfa.webauthn.verify({
        factorId,
        challengeId: created.data.challengeId,
        webauthn: { ...relyingParty(), ...created.data.webauthn },
      } as Parameters<SessionClient['mfa']['webauthn']['verify']>[0]);
      if (verified.error) {
        await client.mfa.unenroll({ factorId }).catch(() => undefined);
        throw verified.error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: factorKeys.all }),
  });
}

/** The second step of a sign-in with a security key factor: the session becomes aal2. */
export async function verifyWithSecurityKey(client: SessionClient, factorId: string): Promise<void> {
  const { error } = await client.mfa.webauthn.authenticate({ factorId, webauthn: relyingParty() });
  if (error) throw error;
}

