import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

/** GET /api/v1/app-config: the public settings of this deployment. */
export type AppConfig = ApiSchemas['AppConfig'];

export const appConfigKeys = {
  all: ['app-config'] as const,
};

export function getAppConfig(signal?: AbortSignal): Promise<AppConfig> {
  return unwrap(api.GET('/api/v1/app-config', { signal }));
}

export function appConfigQueryOptions() {
  return queryOptions({
    queryKey: appConfigKeys.all,
    queryFn: ({ signal }) => getAppConfig(signal),
    // A deployment's settings do not change while a page is open.
    staleTime: Infinity,
  });
}

export function useAppConfig() {
  return useQuery(appConfigQueryOptions());
}
