import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';

/** POST /api/v1/leaderboard/entries/{id}/report (signed in): sends the entry to the admins' page. */
export function reportEntry({ photoId, reason }: { photoId: string; reason: string }) {
  return unwrap(api.POST('/api/v1/leaderboard/entries/{id}/report', { params: { path: { id: photoId } }, body: { reason } }));
}

export function useReportEntry() {
  return useMutation({ mutationFn: reportEntry });
}
