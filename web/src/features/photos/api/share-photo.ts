import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

export type ShareLink = ApiSchemas['ShareLink'];

/**
 * POST /api/v1/photos/{id}/share (signed in, idempotent): makes a saved
 * result public at /s/<slug>, whose link preview shows the score card.
 */
export function sharePhoto(id: string): Promise<ShareLink> {
  return unwrap(api.POST('/api/v1/photos/{id}/share', { params: { path: { id } } }));
}

export function useSharePhoto() {
  return useMutation({ mutationFn: sharePhoto });
}
