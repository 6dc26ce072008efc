import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

export type AdminAuditEntry = ApiSchemas['AdminAuditEntry'];

/** GET /api/v1/admin/audit: administrators' decisions, newest first, 50 a page. */
export function useAdminAudit() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: ['admin', 'audit'],
      queryFn: ({ pageParam }) => unwrap(api.GET('/api/v1/admin/audit', { params: { query: { before: pageParam ?? undefined } } })),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextBefore ?? null,
    }),
  );
}
