import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import type { EditsQuota } from './types';
import { mirrorEditsRemaining, outOfEdits, readMirroredEditsRemaining } from './quota-mirror';

export const editKeys = {
  all: ['edits'] as const,
  /** Signing in or out changes whose edits are counted: SessionProvider empties the cache then. */
  quota: () => [...editKeys.all, 'quota'] as const,
};

/** GET /api/v1/edits/quota: the server's count for this device (and user), mirrored for display. */
export async function getEditsQuota(): Promise<EditsQuota> {
  const quota = await unwrap(api.GET('/api/v1/edits/quota'));
  mirrorEditsRemaining(quota.unlimited ? null : quota.remaining);
  return quota;
}

export function editsQuotaQueryOptions() {
  return queryOptions({ queryKey: editKeys.quota(), queryFn: getEditsQuota, staleTime: 30_000 });
}

export type EditAllowance = {
  /** Free edits left; null when unlimited; undefined while unknown. */
  remaining: number | null | undefined;
  unlimited: boolean;
  /** Whether hair and outfit prompts can work (a generative provider is configured). */
  generative: boolean;
  /** Every edit button is disabled (free edits at 0). */
  out: boolean;
};

/** What the edit buttons need: the server's count, or the mirrored one until it answers. */
export function useEditAllowance(): EditAllowance {
  const quota = useQuery(editsQuotaQueryOptions());
  const data = quota.data;
  const remaining = data ? (data.unlimited ? null : data.remaining) : readMirroredEditsRemaining();
  return {
    remaining,
    unlimited: data?.unlimited ?? false,
    generative: data?.generative ?? false,
    out: outOfEdits(remaining),
  };
}
