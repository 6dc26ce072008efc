import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, noContent, unwrap, type ApiSchemas } from '@/lib/api-client';

/**
 * Reported requesters (contact requests): a contestant's report blocks the
 * requester and lands here, with the reason, the request's first message and
 * the requester's address. An admin marks each one resolved, once.
 */
export type ContactReport = ApiSchemas['ContactReport'];

export const contactReportKeys = {
  all: ['admin', 'contact-reports'] as const,
};

/** Open reports first; otherwise the server's order (newest first). */
export function openReportsFirst(reports: ContactReport[]): ContactReport[] {
  const rank = (report: ContactReport) => (report.status === 'open' ? 0 : 1);
  return [...reports].sort((a, b) => rank(a) - rank(b));
}

/** GET /api/v1/admin/contact-reports (admins): at most 500, open first. */
export function useContactReports() {
  return useQuery(
    queryOptions({
      queryKey: contactReportKeys.all,
      queryFn: () => unwrap(api.GET('/api/v1/admin/contact-reports')),
      select: openReportsFirst,
    }),
  );
}

/** POST /api/v1/admin/contact-reports/{id}/resolve: 204, or 409 when it was resolved before. Audited by the server. */
export function useResolveContactReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => noContent(api.POST('/api/v1/admin/contact-reports/{id}/resolve', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactReportKeys.all }),
  });
}
