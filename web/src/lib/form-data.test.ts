// @vitest-environment jsdom
// (jsdom: this file relies on its cookie, storage-quota or FormData behaviour, which happy-dom differs on.)
import { describe, expect, it } from 'vitest';
import { toFormData } from './form-data';

describe('toFormData', () => {
  it('keeps files with their name, writes flags as true/false and leaves out missing values', () => {
    const image = new File([new Uint8Array([1, 2])], 'me.png', { type: 'image/png' });
    const form = toFormData({ image, public_listing: true, display_name: 'Ada', bio: undefined, other: null });
    expect((form.get('image') as File).name).toBe('me.png');
    expect(form.get('public_listing')).toBe('true');
    expect(form.get('display_name')).toBe('Ada');
    expect(form.has('bio')).toBe(false);
    expect(form.has('other')).toBe(false);
  });

  it('names a bare blob after its field', () => {
    const form = toFormData({ image: new Blob([new Uint8Array([1])], { type: 'image/jpeg' }) });
    expect((form.get('image') as File).name).toBe('image');
  });
});
