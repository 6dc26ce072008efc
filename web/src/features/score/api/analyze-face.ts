import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import { toFormData } from '@/lib/form-data';
import type { FaceAnalysis } from '../types';

/**
 * POST /api/v1/analyses/face: the server finds the face, measures it and
 * scores it. Nothing is stored. Errors carry the server's message for the
 * user (no face, too large, not an image, rate limited...).
 */
export function analyzeFace(image: Blob): Promise<FaceAnalysis> {
  return unwrap(
    api.POST('/api/v1/analyses/face', {
      // A file field is typed as a binary string; toFormData sends the Blob.
      body: { image: image as unknown as string },
      bodySerializer: toFormData,
    }),
  );
}

export function useAnalyzeFace() {
  return useMutation({ mutationFn: analyzeFace });
}
