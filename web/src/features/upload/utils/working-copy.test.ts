import { describe, expect, it, vi } from 'vitest';
import {
  KEEP_ORIGINAL_MAX_BYTES,
  makeWorkingCopy,
  WORKING_COPY_MAX_SIDE,
  WORKING_COPY_QUALITY,
  workingCopySize,
  type ImageCodec,
} from './working-copy';

type FakeImage = { width: number; height: number; close: () => void };

/** A codec that 'decodes' to the given size and 'encodes' to `copyBytes` bytes, recording what it was asked. */
function fakeCodec(size: { width: number; height: number } | Error, copyBytes = 100) {
  const image: FakeImage = { ...(size instanceof Error ? { width: 0, height: 0 } : size), close: vi.fn() };
  const codec: ImageCodec<FakeImage> = {
    decode: vi.fn(async () => {
      if (size instanceof Error) throw size;
      return image;
    }),
    encodeJpeg: vi.fn(async () => new Blob([new Uint8Array(copyBytes)], { type: 'image/jpeg' })),
  };
  return { codec, image };
}

const file = (bytes: number, type: string) => new File([new Uint8Array(bytes)], 'photo', { type });

describe('workingCopySize', () => {
  it('scales a 12 MP photo so its longer side is the maximum, keeping the aspect ratio', () => {
    expect(workingCopySize(4032, 3024)).toEqual({ width: 1536, height: 1152, scaled: true });
    expect(workingCopySize(3024, 4032)).toEqual({ width: 1152, height: 1536, scaled: true });
    expect(workingCopySize(4000, 3000, 1000)).toEqual({ width: 1000, height: 750, scaled: true });
  });

  it('never scales up, and leaves a photo at exactly the maximum alone', () => {
    expect(workingCopySize(512, 512)).toEqual({ width: 512, height: 512, scaled: false });
    expect(workingCopySize(WORKING_COPY_MAX_SIDE, 1000)).toEqual({ width: WORKING_COPY_MAX_SIDE, height: 1000, scaled: false });
  });

  it('keeps at least one pixel on the short side of a sliver', () => {
    expect(workingCopySize(100_000, 10)).toEqual({ width: 1536, height: 1, scaled: true });
  });
});

describe('makeWorkingCopy', () => {
  it('encodes a large photo as a JPEG at the working size and quality, and lets go of the pixels', async () => {
    const { codec, image } = fakeCodec({ width: 4032, height: 3024 });
    const original = file(3_000_000, 'image/jpeg');
    const copy = await makeWorkingCopy(original, codec);
    expect(copy).not.toBe(original);
    expect(copy.type).toBe('image/jpeg');
    expect(copy.size).toBe(100);
    expect(codec.encodeJpeg).toHaveBeenCalledWith(image, 1536, 1152, WORKING_COPY_QUALITY);
    expect(image.close).toHaveBeenCalled();
  });

  it('uses the upright size the decoder reports (a sideways phone photo becomes portrait)', async () => {
    // The decoder applies EXIF orientation: pixels stored 4032x3024 with orientation 6 decode as 3024x4032.
    const { codec, image } = fakeCodec({ width: 3024, height: 4032 });
    await makeWorkingCopy(file(3_000_000, 'image/jpeg'), codec);
    expect(codec.encodeJpeg).toHaveBeenCalledWith(image, 1152, 1536, WORKING_COPY_QUALITY);
  });

  it.each(['image/jpeg', 'image/png', 'image/webp'])(
    'sends a %s that needs no scaling, up to 1 MB, as it is (no re-encoding)',
    async (type) => {
      const { codec, image } = fakeCodec({ width: 512, height: 512 }, 60_000);
      const original = file(KEEP_ORIGINAL_MAX_BYTES, type);
      expect(await makeWorkingCopy(original, codec)).toBe(original);
      expect(codec.encodeJpeg).not.toHaveBeenCalled();
      expect(image.close).toHaveBeenCalled();
    },
  );

  it('re-encodes a photo that needs no scaling but is over 1 MB', async () => {
    const { codec, image } = fakeCodec({ width: 1500, height: 1000 }, 300_000);
    const copy = await makeWorkingCopy(file(KEEP_ORIGINAL_MAX_BYTES + 1, 'image/png'), codec);
    expect(copy.type).toBe('image/jpeg');
    expect(codec.encodeJpeg).toHaveBeenCalledWith(image, 1500, 1000, WORKING_COPY_QUALITY);
  });

  it('re-encodes a small photo of a type the server does not read (HEIC)', async () => {
    const { codec } = fakeCodec({ width: 800, height: 600 }, 60_000);
    const copy = await makeWorkingCopy(file(80_000, 'image/heic'), codec);
    expect(copy.type).toBe('image/jpeg');
  });

  it('keeps the original when its copy would come out larger', async () => {
    const { codec } = fakeCodec({ width: 4000, height: 3000 }, 900_000);
    const original = file(800_000, 'image/jpeg');
    expect(await makeWorkingCopy(original, codec)).toBe(original);
  });

  it('sends what the browser cannot decode as it is, for the server to judge', async () => {
    const { codec } = fakeCodec(new Error('The source image could not be decoded.'));
    const original = file(1234, 'image/png');
    expect(await makeWorkingCopy(original, codec)).toBe(original);
    expect(codec.encodeJpeg).not.toHaveBeenCalled();
  });

  it('falls back to the original when encoding fails, still letting go of the pixels', async () => {
    const { codec, image } = fakeCodec({ width: 4032, height: 3024 });
    vi.mocked(codec.encodeJpeg).mockRejectedValue(new Error('out of memory'));
    const original = file(3_000_000, 'image/jpeg');
    expect(await makeWorkingCopy(original, codec)).toBe(original);
    expect(image.close).toHaveBeenCalled();
  });

  it('falls back to the original where the browser has no createImageBitmap (the default codec)', async () => {
    const original = file(10, 'image/png');
    expect(await makeWorkingCopy(original)).toBe(original);
  });
});
