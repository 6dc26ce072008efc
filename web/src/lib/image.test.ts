import { describe, expect, it } from 'vitest';
import { dataUrlToBlob, imageFileName } from './image';

describe('dataUrlToBlob', () => {
  it('decodes a base64 data URL with its type', async () => {
    const blob = dataUrlToBlob('data:image/png;base64,iVBORw==');
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('decodes a plain data URL', async () => {
    const blob = dataUrlToBlob('data:text/plain,hello%20there');
    expect(await blob.text()).toBe('hello there');
  });

  it('refuses something else', () => {
    expect(() => dataUrlToBlob('https://example.com/a.png')).toThrow();
  });

  it('names files by type', () => {
    expect(imageFileName('photo', 'image/jpeg')).toBe('photo.jpg');
    expect(imageFileName('photo', 'image/png')).toBe('photo.png');
  });
});
