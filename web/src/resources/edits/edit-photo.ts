import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '@/lib/api-client';
import { photoKeys } from '@/resources/photos/photos';
import type { EditPhotoRequest, EditPhotoResponse, EditsQuota } from './types';
import { mirrorEditsRemaining } from './quota-mirror';
import { editKeys } from './get-edits-quota';

/**
 * POST /functions/v1/edit-photo. The server counts the edit against this
 * device's free edits (adjustments alone are free) and answers with the
 * edited image and the edits left. Errors are `ApiError`s.
 */
export async function editPhoto(request: EditPhotoRequest): Promise<EditPhotoResponse> {
  return unwrap(api.POST('/functions/v1/edit-photo', { body: request }));
}

/** True when the server refused because the free edits are used up. */
export function isQuotaError(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'free_edits_used' || error.status === 403);
}

/** An edit that keeps the quota (and its local mirror) in step with the server's answer. */
export function useEditPhoto() {
  const queryClient = useQueryClient();
  const quotaKey = editKeys.quota();

  const setRemaining = (remaining: number | null) => {
    mirrorEditsRemaining(remaining);
    queryClient.setQueryData<EditsQuota>(quotaKey, (old) =>
      old
        ? { ...old, remaining, unlimited: remaining === null, used: remaining === null ? old.used : old.limit - remaining }
        : old,
    );
  };

  return useMutation({
    mutationFn: editPhoto,
    onSuccess: (result, request) => {
      setRemaining(result.editsRemaining);
      if (request.photoId) void queryClient.invalidateQueries({ queryKey: photoKeys.all });
    },
    onError: (error) => {
      // Whatever the browser thought, the server says there are none left.
      if (isQuotaError(error)) setRemaining(0);
      void queryClient.invalidateQueries({ queryKey: quotaKey });
    },
  });
}
