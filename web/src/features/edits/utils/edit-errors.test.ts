import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { editErrorMessage, editRefusal } from './edit-errors';

describe('edit error messages', () => {
  it('maps a 429 and a message containing 429 to the rate limit message', () => {
    expect(editErrorMessage(new ApiError(429, 'rate_limited', 'slow down'))).toBe(
      'Rate limit exceeded. Please try again later.',
    );
    expect(editErrorMessage(new Error('Edge Function returned 429'))).toBe('Rate limit exceeded. Please try again later.');
  });

  it('maps a 402 and a message containing 402 to the credits message', () => {
    expect(editErrorMessage(new ApiError(402, 'provider_credits', 'x'))).toBe('Please add credits to continue editing.');
    expect(editErrorMessage(new Error('status 402'))).toBe('Please add credits to continue editing.');
  });

  it('shows the quota refusal and the built-in editor’s answer as the server words them', () => {
    const used = "You've used all your free edits. Upgrade to Premium for unlimited edits!";
    expect(editErrorMessage(new ApiError(403, 'free_edits_used', used))).toBe(used);
    const unsupported = 'The built-in editor can enhance, upscale, retouch, change the background and apply styles.';
    expect(editErrorMessage(new ApiError(422, 'unsupported_prompt', unsupported))).toBe(unsupported);
    expect(editErrorMessage(new ApiError(413, 'too_large', 'File too large! Please upload an image under 10MB.'))).toBe(
      'File too large! Please upload an image under 10MB.',
    );
  });

  it('asks for an instruction when the prompt is missing', () => {
    expect(editErrorMessage(new ApiError(400, 'missing_prompt', 'whatever'))).toBe('Please enter an editing instruction');
  });

  it('falls back to the failure message of the kind of edit', () => {
    expect(editErrorMessage(new ApiError(500, 'internal', 'Internal error'))).toBe('Failed to edit photo. Please try again.');
    expect(editErrorMessage(new TypeError('Failed to fetch'), 'enhance')).toBe('Failed to enhance photo. Please try again.');
    expect(editErrorMessage(new ApiError(400, 'invalid_image_url', 'bad url'), 'upscale')).toBe(
      'Failed to upscale photo. Please try again.',
    );
    expect(editErrorMessage(undefined)).toBe('Failed to edit photo. Please try again.');
  });
});

describe('editRefusal', () => {
  const ok = { busy: false, out: false, prompt: 'brighter' };

  it('lets an edit start with a photo, free edits and an instruction', () => {
    expect(editRefusal(ok)).toBeNull();
    expect(editRefusal({ ...ok, hasImage: true })).toBeNull();
  });

  it('refuses in the editors\' order: busy (silently), no photo, no free edits, no instruction', () => {
    expect(editRefusal({ busy: true, hasImage: false, out: true, prompt: '' })).toEqual({ message: null });
    expect(editRefusal({ ...ok, hasImage: false, out: true, prompt: '' })).toEqual({ message: 'Please upload an image first' });
    expect(editRefusal({ ...ok, out: true, prompt: '' })).toEqual({
      message: "You've used all your free edits. Upgrade to Premium for unlimited edits!",
    });
    expect(editRefusal({ ...ok, prompt: '   ' })).toEqual({ message: 'Please enter an editing instruction' });
  });
});
