import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/** GET /api/v1/dashboard: the stats cards, each number from the server. */
export type DashboardSummary = ApiSchemas['DashboardSummary'];

export const dashboardKeys = {
  summary: () => ['dashboard'] as const,
};

/** The signed-in user's numbers (not asked while signed out). */
export function useDashboardSummary() {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: dashboardKeys.summary(),
      queryFn: () => unwrap(api.GET('/api/v1/dashboard')),
      enabled: Boolean(session),
    }),
  );
}
