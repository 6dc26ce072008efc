import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api, noContent } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/**
 * GET /api/v1/admin/access, the server's answer to "may this user open the
 * admin pages?": 204 for an admin (a user_roles row with role admin), 401
 * signed out, 403 `{ code: "admin_only", message: "Access denied: Admin only" }`
 * for everyone else. The server decides; the pages only mirror its answer, and
 * every admin endpoint checks again.
 */
export type AdminAccess = 'granted' | 'signed-out' | 'denied';

export const adminKeys = {
  all: ['admin'] as const,
  access: () => [...adminKeys.all, 'access'] as const,
};

/** Resolves to the server's answer; any other status (or no answer) throws an `ApiError`. */
export async function getAdminAccess(signal?: AbortSignal): Promise<AdminAccess> {
  try {
    await noContent(api.GET('/api/v1/admin/access', { signal }));
    return 'granted';
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return 'signed-out';
    if (error instanceof ApiError && error.status === 403) return 'denied';
    throw error;
  }
}

export function adminAccessQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.access(),
    queryFn: ({ signal }) => getAdminAccess(signal),
    // Asked again on every visit: a revoked role must not linger in the cache.
    staleTime: 0,
    gcTime: 0,
  });
}

/** The server's answer for the signed-in user (not asked while signed out). */
export function useAdminAccess() {
  const { session } = useSession();
  return useQuery({ ...adminAccessQueryOptions(), enabled: Boolean(session) });
}

