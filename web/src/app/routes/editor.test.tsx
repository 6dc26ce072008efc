import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const edited = (url: string, editsRemaining: number | null = 4) =>
  json({ editedImageUrl: url, editsRemaining, operations: [], engine: 'builtin' });

/** The editor is gated by ai_editor: these tests are about the editor itself, so the server grants it. */
const granted = () => json({ hasAccess: true, reason: 'granted', trialRemaining: 0 });

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
    await vi.waitFor(() => expect(within(dialog).getByRole('link', { name: 'Text/SMS' })).toHaveAttribute('href', expect.stringContaining('enhanced%20my%20photo')));
  });
});
