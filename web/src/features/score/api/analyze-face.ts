import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import type { FaceAnalysis } from '../types';

type Answer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/**
 * POST /api/v1/analyses/face: the server finds the face, measures it and
 * scores it. Nothing is stored. Errors carry the server's message for the
 * user (no face, too large, not an image, rate limited...).
 */
export function analyzeFace(image: Blob): Promise<FaceAnalysis> {
  const body = new FormData();
  body.append('image', image, image instanceof File ? image.name : 'photo');
  // The casts go once web/src/lib/api/schema.d.ts lists this path.
  return unwrap(api.POST('/api/v1/analyses/face' as never, { body } as never) as unknown as Answer<FaceAnalysis>);
}

export function useAnalyzeFace() {
  return useMutation({ mutationFn: analyzeFace });
}
