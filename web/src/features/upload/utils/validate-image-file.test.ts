import { describe, expect, it, vi } from 'vitest';
import { acceptImageFile } from './accept-image-file';
import { UPLOADED_IMAGE_KEY } from './uploaded-image';
import { readFileAsDataUrl, validateImageFile } from './validate-image-file';

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
const text = () => new File(['hello'], 'notes.txt', { type: 'text/plain' });

describe('validateImageFile', () => {
  it.each(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/svg+xml'])('accepts %s', (type) => {
    expect(validateImageFile({ type })).toEqual({ ok: true });
  });

  it.each(['text/plain', 'application/pdf', 'video/mp4', '', 'application/image'])(
    'rejects %j with the spec message',
    (type) => {
      expect(validateImageFile({ type })).toEqual({ ok: false, message: 'Please upload an image file' });
    },
  );

  it('rejects a missing file', () => {
    expect(validateImageFile(undefined)).toEqual({ ok: false, message: 'Please upload an image file' });
  });
});

describe('readFileAsDataUrl', () => {
  it('reads an image into a data URL', async () => {
    await expect(readFileAsDataUrl(png())).resolves.toBe('data:image/png;base64,iVBORw==');
  });
});

describe('acceptImageFile', () => {
  it('keeps a valid image in this tab’s session storage', async () => {
    const result = await acceptImageFile(png());
    expect(result).toEqual({ ok: true, dataUrl: 'data:image/png;base64,iVBORw==' });
    expect(sessionStorage.getItem(UPLOADED_IMAGE_KEY)).toBe('data:image/png;base64,iVBORw==');
  });

  it('rejects a text file without reading it', async () => {
    const read = vi.fn(readFileAsDataUrl);
    expect(await acceptImageFile(text(), read)).toEqual({ ok: false, message: 'Please upload an image file' });
    expect(read).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(UPLOADED_IMAGE_KEY)).toBeNull();
  });

  it('reports a read failure with the spec message', async () => {
    const read = vi.fn().mockRejectedValue(new DOMException('boom', 'NotReadableError'));
    expect(await acceptImageFile(png(), read)).toEqual({ ok: false, message: 'Failed to read image file' });
    expect(sessionStorage.getItem(UPLOADED_IMAGE_KEY)).toBeNull();
  });
});
