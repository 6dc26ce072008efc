import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { photoKeys, savePhoto, useDeletePhoto, useSavePhoto, useUpdateEditedImage } from './photos';

const ID = '11111111-2222-4333-8444-555555555555';

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // Both orders of the list in the cache.
  client.setQueryData(photoKeys.list('latest'), []);
  client.setQueryData(photoKeys.list('rating'), []);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const stale = () =>
    [photoKeys.list('latest'), photoKeys.list('rating')].map((key) => client.getQueryState(key)?.isInvalidated);
  return { wrapper, stale };
}

describe('the photos resource', () => {
  it('keys each order of the list apart, under one root, without the user (the cache is emptied when the user changes)', () => {
    expect(photoKeys.list('latest')).toEqual(['photos', 'list', 'latest']);
    expect(photoKeys.list('rating')).toEqual(['photos', 'list', 'rating']);
    expect(photoKeys.list('latest').slice(0, 1)).toEqual([...photoKeys.all]);
  });

  it('makes every list stale after a save, a delete and an undo', async () => {
    const fetchMock = stubApi({
      'POST /api/v1/photos': () => json({ id: ID }, 201),
      [`DELETE /api/v1/photos/${ID}`]: () => new Response(null, { status: 204 }),
      [`PATCH /api/v1/photos/${ID}`]: () => json({ id: ID }),
    });
    for (const [useMutationHook, input] of [
      [useSavePhoto, { image: new Blob(['x'], { type: 'image/jpeg' }) }],
      [useDeletePhoto, ID],
      [useUpdateEditedImage, { id: ID, editedImageUrl: null }],
    ] as const) {
      const { wrapper, stale } = setup();
      const { result } = renderHook(() => (useMutationHook as () => { mutateAsync: (input: unknown) => Promise<unknown> })(), { wrapper });
      expect(stale()).toEqual([false, false]);
      await act(() => result.current.mutateAsync(input));
      expect(stale()).toEqual([true, true]);
    }
    expect(await callsTo(fetchMock, 'PATCH', `/api/v1/photos/${ID}`)[0]!.json()).toEqual({ editedImageUrl: null });
  });

  it('saves the original as the photo and its edit beside it, and no edit when there is none', async () => {
    const fetchMock = stubApi({ 'POST /api/v1/photos': () => json({ id: ID }, 201) });
    await savePhoto({
      image: new Blob(['original'], { type: 'image/png' }),
      editedImage: new Blob(['edited'], { type: 'image/jpeg' }),
    });
    await savePhoto({ image: new Blob(['original'], { type: 'image/png' }) });
    const [withEdit, withoutEdit] = await Promise.all(callsTo(fetchMock, 'POST', '/api/v1/photos').map((request) => request.formData()));
    // (jsdom's Blob does not survive the test double's Request, so the fields are looked at by name.)
    expect([...withEdit!.keys()].sort()).toEqual(['edited_image', 'image', 'public_listing']);
    expect([...withoutEdit!.keys()].sort()).toEqual(['image', 'public_listing']);
  });

  it('leaves the lists alone when the server refuses', async () => {
    stubApi({ [`DELETE /api/v1/photos/${ID}`]: () => apiError(404, 'not_found', 'Photo not found') });
    const { wrapper, stale } = setup();
    const { result } = renderHook(() => useDeletePhoto(), { wrapper });
    await act(() => result.current.mutateAsync(ID).catch(() => undefined));
    expect(stale()).toEqual([false, false]);
  });
});
