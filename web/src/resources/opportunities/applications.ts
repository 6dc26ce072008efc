import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/** An application as its author and the admins see it. */
export type ApplicationView = ApiSchemas['ApplicationView'];
/** POST /api/v1/opportunities/applications' body (the form's schema mirrors the server's checks). */
export type ApplicationForm = ApiSchemas['ApplicationForm'];

export const applicationKeys = {
  mine: () => ['opportunities', 'mine'] as const,
  admin: () => ['admin', 'opportunities'] as const,
};

/** GET /api/v1/opportunities/applications/mine: the user's application, or null before they apply. */
export async function getMyApplication(): Promise<ApplicationView | null> {
  try {
    return await unwrap(api.GET('/api/v1/opportunities/applications/mine'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The signed-in user's application (not asked while signed out). */
export function useMyApplication() {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: applicationKeys.mine(),
      queryFn: getMyApplication,
      enabled: Boolean(session),
    }),
  );
}

/** POST /api/v1/opportunities/applications: one per user (409 `already_applied` after that). */
export function submitApplication(application: ApplicationForm) {
  return unwrap(api.POST('/api/v1/opportunities/applications', { body: application }));
}

export function useSubmitApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitApplication,
    onSuccess: (saved) => queryClient.setQueryData(applicationKeys.mine(), saved),
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'already_applied') {
        void queryClient.invalidateQueries({ queryKey: applicationKeys.mine() });
      }
    },
  });
}

export function useAdminApplications() {
  return useQuery(queryOptions({ queryKey: applicationKeys.admin(), queryFn: () => unwrap(api.GET('/api/v1/admin/opportunities')) }));
}

/** Marks an application answered; the server keeps the first mark. */
export function useMarkContacted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/admin/opportunities/{id}/contacted', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationKeys.admin() }),
  });
}

/** GET /api/v1/admin/opportunities.csv with the admin's token, saved as a file. */
export async function downloadApplicationsCsv(): Promise<void> {
  const csv = await unwrap(api.GET('/api/v1/admin/opportunities.csv', { parseAs: 'blob' }));
  const url = URL.createObjectURL(csv);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'opportunity-applications.csv';
  link.click();
  URL.revokeObjectURL(url);
}
