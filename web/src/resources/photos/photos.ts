import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from '@/lib/api-client';
import { toFormData } from '@/lib/form-data';

/**
 * The saved photos resource (`/api/v1/photos`): its query keys, fetchers and
 * hooks. Several features touch it (My Photos lists and deletes, the results
 * screen and the editor save, the AI editor writes edits).
 */

/** A saved photo row, as the server sends it (snake_case, signed image URLs). */
export type Photo = ApiSchemas['Photo'];
export type PhotoSort = 'latest' | 'rating';
export type ShareLink = ApiSchemas['ShareLink'];
/** How long a new share link works: until it is revoked, 24 hours or 7 days. */
export type ShareExpiry = ApiSchemas['ShareExpiry'];

export const photoKeys = {
  all: ['photos'] as const,
  lists: () => [...photoKeys.all, 'list'] as const,
  list: (sort: PhotoSort) => [...photoKeys.lists(), sort] as const,
};

/** GET /api/v1/photos?sort=latest|rating: the signed-in user's saved photos. */
export function listPhotos(sort: PhotoSort): Promise<Photo[]> {
  return unwrap(api.GET('/api/v1/photos', { params: { query: { sort } } }));
}

export function photosQueryOptions(sort: PhotoSort) {
  return queryOptions({ queryKey: photoKeys.list(sort), queryFn: () => listPhotos(sort) });
}

export function usePhotos(sort: PhotoSort) {
  return useQuery(photosQueryOptions(sort));
}

export type SavePhotoInput = {
  /** The photo as it was taken (the original); the server analyses it again and stores its own score. */
  image: Blob;
  /** Its AI edit, if any: kept beside it as the photo's edited image (not scored), as My Photos' own edits are. */
  editedImage?: Blob;
  /** Leaderboard entries: public_listing true with a display name (and maybe a bio). */
  publicListing?: boolean;
  displayName?: string;
  bio?: string;
  /** Which analysis scores it: face (the default), feet or hands. */
  photoType?: 'face' | 'feet' | 'hands';
};

/** POST /api/v1/photos (signed in): stores the photo with the server's score. */
export function savePhoto({ image, editedImage, publicListing = false, displayName, bio, photoType }: SavePhotoInput): Promise<Photo> {
  return unwrap(
    api.POST('/api/v1/photos', {
      body: {
        // A file field is typed as a binary string; toFormData sends the Blob.
        image: image as unknown as string,
        edited_image: editedImage as unknown as string | undefined,
        public_listing: publicListing,
        display_name: displayName,
        bio: bio || undefined,
        photo_type: photoType,
      },
      bodySerializer: toFormData,
    }),
  );
}

/** Every mutation of a photo makes the lists stale. */
function useInvalidatePhotos() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: photoKeys.all });
}

export function useSavePhoto() {
  const invalidate = useInvalidatePhotos();
  return useMutation({ mutationFn: savePhoto, onSuccess: invalidate });
}

/**
 * PUT /api/v1/photos/{id}/edited-image: the AI Photo Editor's Save for a
 * photo opened from My Photos. The edit is attached to the saved photo (its
 * original and score stay as they are), so the photo is updated, not
 * duplicated, whatever its type.
 */
export function attachEdit({ id, image }: { id: string; image: Blob }): Promise<Photo> {
  return unwrap(
    api.PUT('/api/v1/photos/{id}/edited-image', {
      params: { path: { id } },
      // A file field is typed as a binary string; toFormData sends the Blob.
      body: { image: image as unknown as string },
      bodySerializer: toFormData,
    }),
  );
}

export function useAttachEdit() {
  const invalidate = useInvalidatePhotos();
  return useMutation({ mutationFn: attachEdit, onSuccess: invalidate });
}

/** DELETE /api/v1/photos/{id}: the row and its images leave storage. */
export async function deletePhoto(id: string): Promise<void> {
  const { response, error } = await api.DELETE('/api/v1/photos/{id}', { params: { path: { id } } });
  if (!response.ok) {
    const body = (error ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, body.code ?? 'http_error', body.message ?? `Request failed with status ${response.status}`);
  }
}

export function useDeletePhoto() {
  const invalidate = useInvalidatePhotos();
  return useMutation({ mutationFn: deletePhoto, onSuccess: invalidate });
}

/**
 * PATCH /api/v1/photos/{id} with the photo's edited image: Undo writes the
 * previous image back; null returns the photo to its original.
 */
export function updateEditedImage(id: string, editedImageUrl: string | null): Promise<Photo> {
  return unwrap(api.PATCH('/api/v1/photos/{id}', { params: { path: { id } }, body: { editedImageUrl } }));
}

export function useUpdateEditedImage() {
  const invalidate = useInvalidatePhotos();
  return useMutation({
    mutationFn: ({ id, editedImageUrl }: { id: string; editedImageUrl: string | null }) => updateEditedImage(id, editedImageUrl),
    onSuccess: invalidate,
  });
}

/**
 * POST /api/v1/photos/{id}/share (signed in, idempotent): makes a saved
 * result public at /s/<slug>, whose link preview shows the score card, for
 * as long as asked (My Photos' share dialog, the results screen's Save). A
 * link that works already is returned as it is.
 */
export function createShareLink({ id, expiresIn }: { id: string; expiresIn: ShareExpiry }): Promise<ShareLink> {
  return unwrap(api.POST('/api/v1/photos/{id}/share', { params: { path: { id } }, body: { expires_in: expiresIn } }));
}

export function useCreateShareLink() {
  const invalidate = useInvalidatePhotos();
  return useMutation({ mutationFn: createShareLink, onSuccess: invalidate });
}

/** DELETE /api/v1/photos/{id}/share: the public page and card answer 404 from now on. */
export async function revokeShare(id: string): Promise<void> {
  const { response, error } = await api.DELETE('/api/v1/photos/{id}/share', { params: { path: { id } } });
  if (!response.ok) {
    const body = (error ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, body.code ?? 'http_error', body.message ?? `Request failed with status ${response.status}`);
  }
}

export function useRevokeShare() {
  const invalidate = useInvalidatePhotos();
  return useMutation({ mutationFn: revokeShare, onSuccess: invalidate });
}
