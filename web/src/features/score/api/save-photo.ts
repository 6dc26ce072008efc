import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import type { SavedPhoto } from '../types';

type Answer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

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
  const body = new FormData();
  body.append('image', image, image instanceof File ? image.name : 'photo');
  body.append('public_listing', publicListing ? 'true' : 'false');
  if (displayName !== undefined) body.append('display_name', displayName);
  if (bio) body.append('bio', bio);
  // The casts go once web/src/lib/api/schema.d.ts lists this path.
  return unwrap(api.POST('/api/v1/photos' as never, { body } as never) as unknown as Answer<SavedPhoto>);
}

export function useSavePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePhoto,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: photoKeys.all }),
  });
}
