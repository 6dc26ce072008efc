import type { Factor } from '@supabase/auth-js';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionClient } from '@/lib/auth-client';
import { useSession } from '@/lib/session';

export const factorKeys = {
  all: ['account', 'factors'] as const,
};

/** The user's authenticator apps, read fresh from GET /auth/v1/user. */
export function factorsQueryOptions(client: SessionClient) {
  return queryOptions({
    queryKey: factorKeys.all,
    queryFn: async (): Promise<Factor[]> => {
      const { data, error } = await client.mfa.listFactors();
      if (error) throw error;
      return data.totp;
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
