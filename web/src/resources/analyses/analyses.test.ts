import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { analysisErrorMessage, analyzePhoto, GENERIC_ANALYSIS_ERROR, type AnalysisKind } from './analyses';

describe('analyzePhoto', () => {
  it.each<AnalysisKind>(['face', 'pet', 'feet', 'hands'])('posts a %s photo as multipart to its own path', async (kind) => {
    const fetchMock = stubApi({ [`POST /api/v1/analyses/${kind}`]: () => json({ score: 8 }) });
    await expect(analyzePhoto(kind, new Blob(['x'], { type: 'image/jpeg' }))).resolves.toEqual({ score: 8 });
    const [request] = callsTo(fetchMock, 'POST', `/api/v1/analyses/${kind}`);
    expect(request!.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("throws the server's refusal as an ApiError with its message for the user", async () => {
    stubApi({ 'POST /api/v1/analyses/face': () => apiError(422, 'no_face', "We couldn't find a face.") });
    const error = await analyzePhoto('face', new Blob(['x'])).catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(ApiError);
    expect(analysisErrorMessage(error)).toBe("We couldn't find a face.");
  });
});

describe('analysisErrorMessage', () => {
  it('falls back to a plain message when the server gave none', () => {
    expect(analysisErrorMessage(new ApiError(502, 'http_error', 'Request failed with status 502'))).toBe(GENERIC_ANALYSIS_ERROR);
    expect(analysisErrorMessage(new TypeError('Failed to fetch'))).toBe(GENERIC_ANALYSIS_ERROR);
  });
});
