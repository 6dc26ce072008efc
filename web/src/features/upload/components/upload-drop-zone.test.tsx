import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UPLOADED_IMAGE_KEY } from '@/features/upload/utils/uploaded-image';
import { renderApp } from '@/testing/render-app';

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
const text = () => new File(['hello'], 'notes.txt', { type: 'text/plain' });

async function renderHome() {
  const app = renderApp('/');
  const input = await screen.findByLabelText('Choose a photo', {}, { timeout: 5000 });
  return { ...app, input };
}

describe('the home drop zone', () => {
  it('rejects a file that is not an image and stays on the home page', async () => {
    const { user, input, router } = await renderHome();
    await user.upload(input, text());
    expect(await screen.findByText('Please upload an image file')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem(UPLOADED_IMAGE_KEY)).toBeNull();
  });

  it('keeps a picked image for this tab and opens the upload page', async () => {
    const { user, input, router } = await renderHome();
    await user.upload(input, png());
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload Your Photo' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/upload');
    expect(sessionStorage.getItem(UPLOADED_IMAGE_KEY)).toBe('data:image/png;base64,iVBORw==');
  });

  it('accepts a dropped image', async () => {
    const { router } = await renderHome();
    fireEvent.drop(screen.getByTestId('upload-drop-zone'), { dataTransfer: { files: [png()] } });
    await screen.findByRole('heading', { level: 1, name: 'Upload Your Photo' }, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/upload');
  });

  it('rejects a dropped text file', async () => {
    const { router } = await renderHome();
    fireEvent.drop(screen.getByTestId('upload-drop-zone'), { dataTransfer: { files: [text()] } });
    expect(await screen.findByText('Please upload an image file')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('says "Failed to read image file" when the browser cannot read the file', async () => {
    class FailingReader extends EventTarget {
      result: string | null = null;
      error = new DOMException('unreadable', 'NotReadableError');
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      readAsDataURL() {
        queueMicrotask(() => this.onerror?.());
      }
    }
    vi.stubGlobal('FileReader', FailingReader);
    try {
      const { user, input, router } = await renderHome();
      await user.upload(input, png());
      expect(await screen.findByText('Failed to read image file')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
