// @vitest-environment jsdom
// (jsdom: this file relies on its cookie, storage-quota or FormData behaviour, which happy-dom differs on.)
import { describe, expect, it, vi } from 'vitest';
import { SAMPLE_IMAGE, sampleAnalysis } from '../testing/sample-analysis';
import type { ResultState } from '../types';
import { clearPendingResult, keepPendingResult, PENDING_RESULT_KEY, readPendingResult } from './pending-result';

const result: ResultState = {
  analysis: sampleAnalysis(8.3),
  image: SAMPLE_IMAGE,
  edits: { latest: '/media/tmp/edits/e1.jpg?token=abc', needsAnalyze: true, analysis: sampleAnalysis(9.1) },
};

describe('the result kept while signing in', () => {
  it('comes back whole, edits included, from this tab’s session storage', () => {
    expect(keepPendingResult(result)).toBe(true);
    expect(readPendingResult()).toEqual(result);
    clearPendingResult();
    expect(readPendingResult()).toBeNull();
    expect(sessionStorage.getItem(PENDING_RESULT_KEY)).toBeNull();
  });

  it('says so when the browser refuses to keep it', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(keepPendingResult(result)).toBe(false);
  });

  it.each([
    ['not JSON', '{nope'],
    ['no analysis', JSON.stringify({ image: SAMPLE_IMAGE })],
    ['an image that is not a data URL', JSON.stringify({ ...result, image: 'https://elsewhere.example/a.jpg' })],
    ['an edit on another site', JSON.stringify({ ...result, edits: { latest: '//evil.example/x.jpg', needsAnalyze: false } })],
    ['an edit with an absolute address', JSON.stringify({ ...result, edits: { latest: 'https://evil.example/x.jpg', needsAnalyze: false } })],
  ])('ignores what is not a result (%s)', (_what, raw) => {
    sessionStorage.setItem(PENDING_RESULT_KEY, raw);
    expect(readPendingResult()).toBeNull();
  });
});
