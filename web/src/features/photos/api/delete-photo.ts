import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { photoKeys } from './list-photos';

/** DELETE /api/v1/photos/{id}: the row and its images leave storage. */
export async function deletePhoto(id: string): Promise<void> {
  const { response, error } = await api.DELETE('/api/v1/photos/{id}', { params: { path: { id } } });
  if (!response.ok) {
    const body = (error ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, body.code ?? 'http_error', body.message ?? `Request failed with status ${response.status}`);
  }
}

export function useDeletePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePhoto,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: photoKeys.all }),
  });
}
