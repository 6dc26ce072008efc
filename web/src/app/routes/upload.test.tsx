import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sampleAnalysis } from '@/features/score/testing/sample-analysis';
import { UPLOADED_IMAGE_KEY } from '@/features/upload/utils/uploaded-image';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

/** The face analysis endpoint answers what the test says. */
const analyzeFace = vi.fn<() => Response | Promise<Response>>();
let fetchMock: ReturnType<typeof stubApi>;

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });

async function openUpload() {
  const app = renderApp('/upload');
  await screen.findByRole('heading', { level: 1, name: 'Upload Your Photo' }, { timeout: 5000 });
  return app;
}

beforeEach(() => {
  analyzeFace.mockReset();
  fetchMock = stubApi({ 'POST /api/v1/analyses/face': () => analyzeFace() });
});

describe('the upload page', () => {
  it('asks for a photo first', async () => {
    const { user } = await openUpload();
    await user.click(screen.getByRole('button', { name: 'Get My Score!' }));
    expect(await screen.findByText('Please upload a photo first!')).toBeInTheDocument();
    expect(analyzeFace).not.toHaveBeenCalled();
  });

  it('refuses a file over 10 MB', async () => {
    const { user } = await openUpload();
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' });
    await user.upload(screen.getByTestId('gallery-input'), big);
    expect(await screen.findByText('File too large! Please upload an image under 10MB.')).toBeInTheDocument();
    expect(screen.queryByTestId('upload-preview')).toBeNull();
  });

  it('says the camera is coming soon where the browser cannot capture', async () => {
    const { user } = await openUpload();
    expect(screen.queryByTestId('camera-input')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Take Photo' }));
    expect(await screen.findByText('Camera feature coming soon!')).toBeInTheDocument();
  });

  it('picks up the photo the home drop zone kept for this tab', async () => {
    sessionStorage.setItem(UPLOADED_IMAGE_KEY, 'data:image/png;base64,iVBORw==');
    await openUpload();
    expect(screen.getByTestId('upload-preview')).toHaveAttribute('src', 'data:image/png;base64,iVBORw==');
  });

  it('previews a photo, clears it with Change Photo', async () => {
    const { user } = await openUpload();
    await user.upload(screen.getByTestId('gallery-input'), png());
    expect(await screen.findByTestId('upload-preview')).toHaveAttribute('src', 'data:image/png;base64,iVBORw==');
    expect(sessionStorage.getItem(UPLOADED_IMAGE_KEY)).toBe('data:image/png;base64,iVBORw==');
    await user.click(screen.getByRole('button', { name: 'Change Photo' }));
    expect(screen.queryByTestId('upload-preview')).toBeNull();
    expect(sessionStorage.getItem(UPLOADED_IMAGE_KEY)).toBeNull();
  });

  it('shows the analysing state, then opens the results with the analysis and the photo', async () => {
    let resolve: (answer: Response) => void = () => {};
    analyzeFace.mockImplementation(() => new Promise((done) => (resolve = done)));
    const { user, router } = await openUpload();
    await user.upload(screen.getByTestId('gallery-input'), png());
    await screen.findByTestId('upload-preview');
    await user.click(screen.getByRole('button', { name: 'Get My Score!' }));
    expect(await screen.findByTestId('analysing')).toHaveTextContent('Analyzing your photo...');
    expect(screen.getByRole('button', { name: 'Analyzing...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'From Gallery' })).toBeDisabled();
    // The photo goes as multipart (its bytes are checked in use-upload-and-score.test.tsx: jsdom's
    // Blob does not survive Node's multipart encoder).
    const [sent] = callsTo(fetchMock, 'POST', '/api/v1/analyses/face');
    expect(sent!.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);

    await act(async () => resolve(json(sampleAnalysis(8.3))));
    await screen.findByTestId('score-value', {}, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/results');
    expect(router.state.location.state).toEqual({ analysis: sampleAnalysis(8.3), image: 'data:image/png;base64,iVBORw==' });
  });

  it("shows the server's message when no face is found", async () => {
    analyzeFace.mockImplementation(() =>
      apiError(422, 'no_face', 'We could not find a face. Please use a front-facing, well-lit photo.'),
    );
    const { user, router } = await openUpload();
    await user.upload(screen.getByTestId('gallery-input'), png());
    await screen.findByTestId('upload-preview');
    await user.click(screen.getByRole('button', { name: 'Get My Score!' }));
    expect(
      await screen.findByText('We could not find a face. Please use a front-facing, well-lit photo.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/upload');
    expect(screen.getByRole('button', { name: 'Get My Score!' })).toBeEnabled();
  });
});
