import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const edited = (url: string, editsRemaining: number | null = 4) =>
  json({ editedImageUrl: url, editsRemaining, operations: [], engine: 'builtin' });

/** The editor is gated by ai_editor: these tests are about the editor itself, so the server grants it. */
const granted = () => json({ hasAccess: true, reason: 'granted', trialRemaining: 0 });

/** A file field of a request's multipart body, as text. */
async function field(request: Request, name: string): Promise<string> {
  const value = (await request.clone().formData()).get(name);
  return value instanceof Blob ? value.text() : String(value);
}

async function openEditor(state?: unknown) {
  const app = renderApp('/editor', { state, user: 'signed-in' });
  await screen.findByRole('heading', { level: 1, name: 'AI Photo Editor' }, { timeout: 5000 });
  return app;
}

describe('the /editor', () => {
  it('asks for an image first, and has nothing to save or download without one', async () => {
    stubApi({ 'GET /api/v1/edits/quota': () => json(quota(5)), 'POST /functions/v1/check-feature-access': granted });
    const { user } = await openEditor();
    await user.click(screen.getByRole('button', { name: 'Enhance' }));
    expect(await screen.findByText('Please upload an image first')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('No photo to save')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('No edited image to download')).toBeInTheDocument();
  });

  it('previews the sliders live, applies them on the server before the next AI edit, then undoes and redoes', async () => {
    const answers = [edited('/media/adjusted.jpg', 5), edited('/media/enhanced.jpg', 4), edited('/media/warm.jpg', 3)];
    const fetchMock = stubApi({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/check-feature-access': granted,
      'POST /functions/v1/edit-photo': () => answers.shift()!,
    });
    const { user } = await openEditor({ image: '/media/photo.jpg', score: 8.2, ratingLabel: 'Gorgeous' });
    expect(screen.getByTestId('editor-score')).toHaveTextContent('8.2/10');
    await user.click(screen.getByRole('tab', { name: /Adjust/ }));
    fireEvent.change(screen.getByLabelText('Brightness'), { target: { value: '130' } });
    fireEvent.change(screen.getByLabelText('Blur'), { target: { value: '2.5' } });
    expect(screen.getByTestId('brightness-value')).toHaveTextContent('130%');
    expect(screen.getByTestId('blurPx-value')).toHaveTextContent('2.5 px');
    expect(screen.getByTestId('editor-image').style.filter).toBe('brightness(130%) contrast(100%) saturate(100%) blur(2.5px)');

    await user.click(screen.getByRole('tab', { name: /AI Tools/ }));
    await user.click(screen.getByRole('button', { name: 'Enhance' }));
    expect(await screen.findByText('Photo enhanced! 4 free edits remaining.')).toBeInTheDocument();
    const bodies = await Promise.all(callsTo(fetchMock, 'POST', '/functions/v1/edit-photo').map((request) => request.json()));
    expect(bodies).toEqual([
      // Every edit on /editor asks the server to check the ai_editor gate again.
      { imageUrl: '/media/photo.jpg', adjustments: { brightness: 130, contrast: 100, saturation: 100, blurPx: 2.5 }, feature: 'ai_editor' },
      { imageUrl: '/media/adjusted.jpg', prompt: 'Enhance', feature: 'ai_editor' },
    ]);
    expect(screen.getByTestId('after-image')).toHaveAttribute('src', '/media/enhanced.jpg');
    expect(screen.getByTestId('history-step')).toHaveTextContent('Enhance · step 3 of 3');

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(screen.getByTestId('history-step')).toHaveTextContent('Original · step 1 of 3');
    await user.click(screen.getByRole('button', { name: 'Redo' }));
    expect(screen.getByTestId('after-image')).toHaveAttribute('src', '/media/adjusted.jpg');

    // A new edit here cuts off the undone Enhance step.
    await user.selectOptions(screen.getByLabelText('Style'), 'Warm');
    await user.click(screen.getByRole('button', { name: 'Apply Style' }));
    expect(await screen.findByText('Photo edited! 3 free edits remaining.')).toBeInTheDocument();
    expect(screen.getByTestId('history-step')).toHaveTextContent('Style · step 3 of 3');
    expect(screen.getByRole('button', { name: 'Redo' })).toBeDisabled();
  });

  it('saves the current image for a signed-in user and shows the server’s score', async () => {
    stubApi({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'GET /media/photo.jpg': () => new Response('jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
      'POST /api/v1/photos': () => json({ id: 'p1', score: 7.9, rating_label: 'Beautiful' }, 201),
      'POST /functions/v1/check-feature-access': granted,
    });
    const { user } = await openEditor({ image: '/media/photo.jpg' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Photo saved to your dashboard!')).toBeInTheDocument();
    expect(screen.getByTestId('editor-score')).toHaveTextContent('7.9/10 · Beautiful');
  });

  it('saves an edited new photo as its original, scored by the server, with the edit beside it', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/check-feature-access': granted,
      'POST /functions/v1/edit-photo': () => edited('/media/tmp/enhanced.jpg'),
      'GET /media/photo.jpg': () => new Response('original-jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
      'GET /media/tmp/enhanced.jpg': () => new Response('edited-jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
      'POST /api/v1/photos': () => json({ id: 'p1', score: 8.5, rating_label: 'Gorgeous' }, 201),
    });
    const { user } = await openEditor({ image: '/media/photo.jpg', score: 8.5, ratingLabel: 'Gorgeous' });
    await user.click(screen.getByRole('button', { name: 'Enhance' }));
    await screen.findByText('Photo enhanced! 4 free edits remaining.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Photo saved to your dashboard!')).toBeInTheDocument();
    const saves = callsTo(fetchMock, 'POST', '/api/v1/photos');
    expect(saves).toHaveLength(1);
    expect(await field(saves[0]!, 'image')).toBe('original-jpeg');
    expect(await field(saves[0]!, 'edited_image')).toBe('edited-jpeg');
    // The score shown is the server's, of the original.
    expect(screen.getByTestId('editor-score')).toHaveTextContent('8.5/10 · Gorgeous');
  });

  it('saves the photo as taken when the results page hands over an edit of it', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/check-feature-access': granted,
      'GET /media/original.jpg': () => new Response('original-jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
      'GET /media/tmp/retouched.jpg': () => new Response('edited-jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
      'POST /api/v1/photos': () => json({ id: 'p1', score: 8.5, rating_label: 'Gorgeous' }, 201),
    });
    const { user } = await openEditor({
      image: '/media/tmp/retouched.jpg',
      originalImage: '/media/original.jpg',
      analysis: { score: 8.5, ratingLabel: 'Gorgeous' },
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Photo saved to your dashboard!')).toBeInTheDocument();
    const saves = callsTo(fetchMock, 'POST', '/api/v1/photos');
    expect(saves).toHaveLength(1);
    expect(await field(saves[0]!, 'image')).toBe('original-jpeg');
    expect(await field(saves[0]!, 'edited_image')).toBe('edited-jpeg');
  });

  it('updates a photo opened from My Photos, whatever its type, instead of saving a copy', async () => {
    const photoId = '00000000-0000-4000-8000-0000000000f1';
    const fetchMock = stubApi({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/check-feature-access': granted,
      'POST /functions/v1/edit-photo': () => edited('/media/tmp/warm.jpg'),
      'GET /media/tmp/warm.jpg': () => new Response('edited-jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
      [`PUT /api/v1/photos/${photoId}/edited-image`]: () =>
        json({ id: photoId, score: 7.4, rating_label: 'Beautiful', photo_type: 'hands', edited_image_url: '/media/p/edits/1.jpg' }),
    });
    const { user } = await openEditor({ image: '/media/hands.jpg', score: 7.4, ratingLabel: 'Beautiful', photoId, photoType: 'hands' });
    // Nothing changed yet: Save sends nothing and keeps the photo as it is.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Photo saved to your dashboard!')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', `/api/v1/photos/${photoId}/edited-image`)).toHaveLength(0);

    await user.selectOptions(screen.getByLabelText('Style'), 'Warm');
    await user.click(screen.getByRole('button', { name: 'Apply Style' }));
    await screen.findByText('Photo edited! 4 free edits remaining.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', `/api/v1/photos/${photoId}/edited-image`)).toHaveLength(1));
    const [attached] = callsTo(fetchMock, 'PUT', `/api/v1/photos/${photoId}/edited-image`);
    expect(await field(attached!, 'image')).toBe('edited-jpeg');
    expect(callsTo(fetchMock, 'POST', '/api/v1/photos')).toHaveLength(0);
    expect(screen.getByTestId('editor-score')).toHaveTextContent('7.4/10 · Beautiful');
  });

  it('says why a save was refused', async () => {
    stubApi({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/check-feature-access': granted,
      'GET /media/cup.jpg': () => new Response('jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
      'POST /api/v1/photos': () =>
        json({ code: 'no_face', message: 'No face detected. Please upload a clear photo showing your face.' }, 422),
    });
    const { user } = await openEditor({ image: '/media/cup.jpg' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save photo')).toBeInTheDocument();
    expect(await screen.findByText('No face detected. Please upload a clear photo showing your face.')).toBeInTheDocument();
  });

  it('says Failed to edit photo when an edit fails, and opens the share dialog', async () => {
    stubApi({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/edit-photo': () => json({ code: 'internal', message: 'boom' }, 500),
      'POST /functions/v1/check-feature-access': granted,
    });
    const { user } = await openEditor({ image: '/media/photo.jpg' });
    await user.click(screen.getByRole('button', { name: 'Upscale 4K' }));
    expect(await screen.findByText('Failed to edit photo. Please try again.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Your Edit' });
    expect(within(dialog).getByRole('button', { name: 'Instagram' })).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('link', { name: 'Text/SMS' })).toHaveAttribute('href', expect.stringContaining('enhanced%20my%20photo')));
  });
});
