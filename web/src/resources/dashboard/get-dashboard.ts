import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

/** GET /api/v1/dashboard: the stats cards, each number from the server. */
export type DashboardSummary = ApiSchemas['DashboardSummary'];

export const dashboardKeys = {
  summary: (userId: string) => ['dashboard', userId] as const,
};

export function useDashboardSummary(userId: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: dashboardKeys.summary(userId ?? ''),
      queryFn: () => unwrap(api.GET('/api/v1/dashboard')),
      enabled: Boolean(userId),
    }),
  );
}
