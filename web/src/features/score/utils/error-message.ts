import { ApiError } from '@/lib/api-client';

export const GENERIC_ANALYSIS_ERROR = 'We could not analyze this photo. Please try again.';

/** The server's message for the user (no face, too large, not an image…), or a plain fallback. */
export function analysisErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.code !== 'http_error' && error.message) return error.message;
  return GENERIC_ANALYSIS_ERROR;
}
