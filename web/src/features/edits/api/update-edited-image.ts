import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

/**
 * PATCH /api/v1/photos/{id} with the photo's edited image: Undo writes the
 * previous image back; null returns the photo to its original.
 */
export async function updateEditedImage(id: string, editedImageUrl: string | null): Promise<ApiSchemas['Photo']> {
  return unwrap(api.PATCH('/api/v1/photos/{id}', { params: { path: { id } }, body: { editedImageUrl } }));
}

export function useUpdateEditedImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, editedImageUrl }: { id: string; editedImageUrl: string | null }) =>
      updateEditedImage(id, editedImageUrl),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['photos'] }),
  });
}
