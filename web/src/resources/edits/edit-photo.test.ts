import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { isQuotaError } from './edit-photo';

describe('isQuotaError', () => {
  it('recognises the quota refusal', () => {
    expect(isQuotaError(new ApiError(403, 'free_edits_used', 'x'))).toBe(true);
    expect(isQuotaError(new ApiError(429, 'rate_limited', 'x'))).toBe(false);
  });
});
