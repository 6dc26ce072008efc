import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import { servesApi, useSession } from '@/lib/session';

/**
 * GET /api/v1/admin/role: whether the signed-in user is an administrator, as
 * a plain yes or no (200 for every signed-in user, so a non-admin's tab logs
 * no refused request on every page). For the Admin links of the side menu
 * and the account menu only: the admin pages ask /api/v1/admin/access again
 * on every visit, and every admin endpoint checks on its own.
 */
export async function getAdminRole(signal?: AbortSignal): Promise<boolean> {
  const { admin } = await unwrap(api.GET('/api/v1/admin/role', { signal }));
  return admin;
}

export const adminRoleKeys = {
  role: () => ['admin', 'role'] as const,
};

/**
 * The server's yes or no for the signed-in user: never asked while signed
 * out, nor by a session that still owes its second factor (the server would
 * refuse it).
 */
export function useAdminRole() {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: adminRoleKeys.role(),
      queryFn: ({ signal }) => getAdminRole(signal),
      enabled: session !== null && servesApi(session),
      retry: false,
    }),
  );
}
