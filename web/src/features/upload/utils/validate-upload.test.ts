import { describe, expect, it } from 'vitest';
import { checkPhotoChosen, MAX_UPLOAD_BYTES, supportsCameraCapture, validateUploadFile } from './validate-upload';

describe('validateUploadFile', () => {
  it('accepts an image up to 10 MB', () => {
    expect(validateUploadFile({ type: 'image/jpeg', size: 1000 })).toEqual({ ok: true });
    expect(validateUploadFile({ type: 'image/png', size: MAX_UPLOAD_BYTES })).toEqual({ ok: true });
  });

  it('refuses anything over 10 MB with the spec message', () => {
    expect(validateUploadFile({ type: 'image/png', size: MAX_UPLOAD_BYTES + 1 })).toEqual({
      ok: false,
      message: 'File too large! Please upload an image under 10MB.',
    });
    expect(validateUploadFile({ type: 'image/jpeg', size: 11 * 1024 * 1024 }).ok).toBe(false);
  });

  it('refuses a file that is not an image', () => {
    expect(validateUploadFile({ type: 'text/plain', size: 10 })).toEqual({
      ok: false,
      message: 'Please upload an image file',
    });
    expect(validateUploadFile(null).ok).toBe(false);
  });
});

describe('checkPhotoChosen', () => {
  it('asks for a photo first', () => {
    expect(checkPhotoChosen(null)).toEqual({ ok: false, message: 'Please upload a photo first!' });
    expect(checkPhotoChosen('')).toEqual({ ok: false, message: 'Please upload a photo first!' });
    expect(checkPhotoChosen('data:image/png;base64,AA==')).toEqual({ ok: true });
  });
});

describe('supportsCameraCapture', () => {
  const media = (coarse: boolean) => () => ({ matches: coarse }) as MediaQueryList;
  class WithCapture {}
  Object.defineProperty(WithCapture.prototype, 'capture', { value: '' });
  class WithoutCapture {}

  it('is true on a touch device whose inputs know capture', () => {
    const win = { matchMedia: media(true), HTMLInputElement: WithCapture as unknown as typeof HTMLInputElement };
    expect(supportsCameraCapture(win)).toBe(true);
  });

  it('trusts a phone or tablet user agent where the property is missing', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const input = WithoutCapture as unknown as typeof HTMLInputElement;
    expect(supportsCameraCapture({ matchMedia: media(true), HTMLInputElement: input, navigator: { userAgent: iphone, maxTouchPoints: 5 } })).toBe(true);
    const ipad = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15';
    expect(supportsCameraCapture({ matchMedia: media(true), HTMLInputElement: input, navigator: { userAgent: ipad, maxTouchPoints: 5 } })).toBe(true);
    expect(supportsCameraCapture({ matchMedia: media(true), HTMLInputElement: input, navigator: { userAgent: ipad, maxTouchPoints: 0 } })).toBe(false);
  });

  it('is false on a desktop pointer, or where inputs lack capture', () => {
    expect(
      supportsCameraCapture({ matchMedia: media(false), HTMLInputElement: WithCapture as unknown as typeof HTMLInputElement }),
    ).toBe(false);
    expect(
      supportsCameraCapture({ matchMedia: media(true), HTMLInputElement: WithoutCapture as unknown as typeof HTMLInputElement }),
    ).toBe(false);
  });
});
