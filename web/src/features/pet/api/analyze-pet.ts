import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import { toFormData } from '@/lib/form-data';
import type { PetAnalysis } from '../types';

/** POST /api/v1/analyses/pet: a cuteness score from measured photo qualities. Nothing is stored. */
export function analyzePet(image: Blob): Promise<PetAnalysis> {
  return unwrap(
    api.POST('/api/v1/analyses/pet', {
      // A file field is typed as a binary string; toFormData sends the Blob.
      body: { image: image as unknown as string },
      bodySerializer: toFormData,
    }),
  );
}

export function useAnalyzePet() {
  return useMutation({ mutationFn: analyzePet });
}
