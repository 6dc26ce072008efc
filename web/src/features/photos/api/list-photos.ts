import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';
import type { Photo, PhotoSort } from '../types';

export const photoKeys = {
  all: ['photos'] as const,
  list: (sort: PhotoSort) => [...photoKeys.all, 'list', sort] as const,
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
