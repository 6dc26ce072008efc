import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import { toFormData } from '@/lib/form-data';
import type { SavedPhoto } from '../types';

export type SavePhotoInput = {
  /** The original photo; the server analyses it again and stores its own score. */
  image: Blob;
  /** Leaderboard entries: public_listing true with a display name (and maybe a bio). */
  publicListing?: boolean;
  displayName?: string;
  bio?: string;
};

export const photoKeys = {
  all: ['photos'] as const,
};

/** POST /api/v1/photos (signed in): stores the photo with the server's score. */
export function savePhoto({ image, publicListing = false, displayName, bio }: SavePhotoInput): Promise<SavedPhoto> {
  return unwrap(
    api.POST('/api/v1/photos', {
      body: {
        // A file field is typed as a binary string; toFormData sends the Blob.
        image: image as unknown as string,
        public_listing: publicListing,
        display_name: displayName,
        bio: bio || undefined,
      },
      bodySerializer: toFormData,
    }),
  );
}

export function useSavePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePhoto,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: photoKeys.all }),
  });
}
