import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import type { PetAnalysis } from '../types';

type Answer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** POST /api/v1/analyses/pet: a cuteness score from measured photo qualities. Nothing is stored. */
export function analyzePet(image: Blob): Promise<PetAnalysis> {
  const body = new FormData();
  body.append('image', image, image instanceof File ? image.name : 'pet');
  // The casts go once web/src/lib/api/schema.d.ts lists this path.
  return unwrap(api.POST('/api/v1/analyses/pet' as never, { body } as never) as unknown as Answer<PetAnalysis>);
}

export function useAnalyzePet() {
  return useMutation({ mutationFn: analyzePet });
}
