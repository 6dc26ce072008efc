import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast';
import type { AnalysisKind } from '@/resources/analyses/analyses';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { useUploadAndScore } from './use-upload-and-score';

/** The server's analysis endpoints, each answering `answer` (what the server says of any photo). */
function stubAnalyses(answer: () => Response) {
  return stubApi(Object.fromEntries((['face', 'pet', 'feet', 'hands'] as const).map((kind) => [`POST /api/v1/analyses/${kind}`, answer])));
}

const picked = () => new File([new Uint8Array(3_000)], 'IMG_0001.JPG', { type: 'image/jpeg' });
/** What the working copy step makes of any photo here: four bytes, 'COPY'. */
const prepare = vi.fn(async () => new Blob(['COPY'], { type: 'image/jpeg' }));
const COPY_DATA_URL = 'data:image/jpeg;base64,Q09QWQ==';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/upload-page']}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

function renderFlow(kind: AnalysisKind) {
  return renderHook(
    () => ({ flow: useUploadAndScore({ kind, resultsPath: `/${kind}-results`, fileBase: kind, prepare }), location: useLocation() }),
    { wrapper },
  );
}

beforeEach(() => {
  prepare.mockClear();
});

describe('useUploadAndScore', () => {
  // The face and pet pages use it today; the feet and hands pages will, on the same endpoints.
  it.each<AnalysisKind>(['face', 'pet', 'feet', 'hands'])(
    'sends the working copy of a %s photo to its analysis and opens its results with the analysis and the copy',
    async (kind) => {
      const analysis = { score: 8.4, kind };
      const fetchMock = stubAnalyses(() => json(analysis));
      const { result } = renderFlow(kind);

      await act(() => result.current.flow.photo.choose(picked()));
      expect(prepare).toHaveBeenCalled();
      expect(result.current.flow.photo.image).toBe(COPY_DATA_URL);

      act(() => result.current.flow.getScore());
      await waitFor(() => expect(result.current.location.pathname).toBe(`/${kind}-results`));
      expect(result.current.location.state).toEqual({ analysis, image: COPY_DATA_URL });
      const sent = callsTo(fetchMock, 'POST', `/api/v1/analyses/${kind}`);
      expect(sent).toHaveLength(1);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      const image = (await sent[0]!.formData()).get('image') as File;
      expect(await image.text()).toBe('COPY');
      expect(image.name).toBe(`${kind}.jpg`);
    },
  );

  it('loads the results page’s code once a photo is chosen, not before', async () => {
    const preloadResults = vi.fn(async () => ({}));
    const { result } = renderHook(
      () => useUploadAndScore({ kind: 'face', resultsPath: '/results', fileBase: 'photo', prepare, preloadResults }),
      { wrapper },
    );
    expect(preloadResults).not.toHaveBeenCalled();
    await act(() => result.current.photo.choose(picked()));
    expect(preloadResults).toHaveBeenCalledTimes(1);
  });

  it('asks for a photo first, without calling the server', async () => {
    const error = vi.spyOn(toast, 'error');
    const fetchMock = stubAnalyses(() => json({ score: 8 }));
    const { result } = renderFlow('face');
    act(() => result.current.flow.getScore());
    expect(error).toHaveBeenCalledWith('Please upload a photo first!');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a file over 10 MB before making a copy', async () => {
    const error = vi.spyOn(toast, 'error');
    const { result } = renderFlow('pet');
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' });
    await act(() => result.current.flow.photo.choose(big));
    expect(error).toHaveBeenCalledWith('File too large! Please upload an image under 10MB.');
    expect(prepare).not.toHaveBeenCalled();
    expect(result.current.flow.photo.image).toBeNull();
  });

  it("shows the server's message and stays on the page when the server refuses", async () => {
    const error = vi.spyOn(toast, 'error');
    stubAnalyses(() => apiError(422, 'not_an_image', 'Please upload an image file'));
    const { result } = renderFlow('hands');
    await act(() => result.current.flow.photo.choose(picked()));
    act(() => result.current.flow.getScore());
    await waitFor(() => expect(error).toHaveBeenCalledWith('Please upload an image file'));
    expect(result.current.location.pathname).toBe('/upload-page');
    expect(result.current.flow.busy).toBe(false);
  });
});
