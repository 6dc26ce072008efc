import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Photo } from '@/resources/photos/photos';
import { apiError, callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

function photo(id: string, score: number, createdAt: string, edited: string | null = null): Photo {
  return {
    id,
    user_id: 'u1',
    original_image_url: `/media/${id}-original.jpg`,
    edited_image_url: edited,
    score,
    rating_label: score >= 8 ? 'Gorgeous' : 'Very Pretty',
    breakdown: { symmetry: 8.1, skinQuality: 7.4, facialHarmony: 9.0, overallBalance: 8 },
    created_at: createdAt,
    featured: false,
    is_verified: false,
    public_listing: false,
    photo_type: 'face',
    held_for_review: false,
  };
}

const older = photo('aaaaaaaa-0000-0000-0000-000000000001', 8.8, '2024-05-01T10:00:00Z');
const newer = photo('bbbbbbbb-0000-0000-0000-000000000002', 7.2, '2024-06-01T10:00:00Z', '/media/b-edit.jpg');

function stubPhotos(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/v1/photos': (request) =>
      json(new URL(request.url).searchParams.get('sort') === 'rating' ? [older, newer] : [newer, older]),
    'GET /api/v1/edits/quota': () => json(quota(5)),
    ...extra,
  });
}

describe('My Photos', () => {
  it('sends a signed-out visitor to sign in', async () => {
    stubPhotos();
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('asks a password-only session of an account with an authenticator app for its code first', async () => {
    const fetchMock = stubPhotos();
    const { user, auth } = renderApp('/dashboard', { user: 'signed-in', auth: { totpCode: '123456' } });
    const code = await screen.findByLabelText('Authentication code', {}, { timeout: 5000 });
    // No call for the photos until the code is in (the server would refuse it).
    expect(callsTo(fetchMock, 'GET', '/api/v1/photos')).toHaveLength(0);
    expect(screen.queryByRole('heading', { level: 1, name: /My Photos/ })).not.toBeInTheDocument();
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 1, name: /My Photos/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(auth.mocks.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-1', code: '123456' });
  });

  it('shows the loading text, then the empty state with its upload button', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi({ 'GET /api/v1/photos': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { user, router } = renderApp('/dashboard', { user: 'signed-in' });
    expect(await screen.findByText('Loading your photos...', {}, { timeout: 5000 })).toBeInTheDocument();
    // The loading text can show before the request leaves (a busy machine): answer it once it has.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/photos')).toHaveLength(1), { timeout: 10_000 });
    answer(json([]));
    expect(await screen.findByText("You haven't uploaded any photos yet")).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('My Photos (0)');
    await user.click(screen.getByRole('link', { name: 'Upload Your First Photo' }));
    expect(router.state.location.pathname).toBe('/upload');
  });

  it('says Failed to load photos when the list fails', async () => {
    stubApi({ 'GET /api/v1/photos': () => apiError(500, 'internal', 'Internal error') });
    renderApp('/dashboard', { user: 'signed-in' });
    expect(await screen.findByText('Failed to load photos', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('lists the photos with email, count, badges and sub-scores, and sorts by rating', async () => {
    const fetchMock = stubPhotos();
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    expect(await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByTestId('user-email')).toHaveTextContent('@');
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    const scores = () => screen.getAllByTestId('photo-score').map((badge) => badge.textContent);
    expect(scores()).toEqual(['7.2/10', '8.8/10']);
    const first = screen.getAllByTestId('photo-card')[0]!;
    expect(first.querySelector('img')).toHaveAttribute('src', '/media/b-edit.jpg');
    expect(within(first).getByText('Skin Quality')).toBeInTheDocument();
    expect(within(first).getByText('9.0/10')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Sort by'), 'Highest Rating');
    await waitFor(() => expect(scores()).toEqual(['8.8/10', '7.2/10']));
    const sorts = callsTo(fetchMock, 'GET', '/api/v1/photos').map((request) => new URL(request.url).searchParams.get('sort'));
    expect(sorts).toEqual(['latest', 'rating']);
  });

  it('shows feet and hands photos their own breakdown on the card and in the details, never face sub-scores', async () => {
    const feet: Photo = {
      ...photo('cccccccc-0000-0000-0000-000000000003', 8.4, '2024-07-01T10:00:00Z'),
      photo_type: 'feet',
      rating_label: 'Gorgeous',
      breakdown: { toeSymmetry: 8.7, archQuality: 7.3, skinAppearance: 9.1, overallAesthetics: 8.2 },
    };
    const hands: Photo = {
      ...photo('dddddddd-0000-0000-0000-000000000004', 7.6, '2024-08-01T10:00:00Z'),
      photo_type: 'hands',
      breakdown: { fingerProportions: 6.6, skinQuality: 7.7, nailAppearance: 8.3, overallAesthetics: 7.1 },
    };
    stubApi({ 'GET /api/v1/photos': () => json([hands, feet]), 'GET /api/v1/edits/quota': () => json(quota(5)) });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    const [handsCard, feetCard] = screen.getAllByTestId('photo-card');
    const terms = (element: HTMLElement) => within(element).getAllByRole('term').map((term) => term.textContent);
    const values = (element: HTMLElement) => within(element).getAllByRole('definition').map((value) => value.textContent);
    expect(terms(feetCard!)).toEqual(['Toe Symmetry', 'Arch Quality', 'Skin Appearance', 'Overall Aesthetics']);
    expect(values(feetCard!)).toEqual(['8.7/10', '7.3/10', '9.1/10', '8.2/10']);
    expect(terms(handsCard!)).toEqual(['Finger Proportions', 'Skin Quality', 'Nail Appearance', 'Overall Aesthetics']);
    expect(values(handsCard!)).toEqual(['6.6/10', '7.7/10', '8.3/10', '7.1/10']);
    expect(within(feetCard!).queryByText('Symmetry')).not.toBeInTheDocument();
    expect(within(feetCard!).queryByText('Facial Harmony')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Details of your 8\.4\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    expect(terms(dialog)).toEqual(['Toe Symmetry', 'Arch Quality', 'Skin Appearance', 'Overall Aesthetics']);
    expect(values(dialog)).toEqual(['8.7/10', '7.3/10', '9.1/10', '8.2/10']);
    expect(within(dialog).queryByText('Facial Harmony')).not.toBeInTheDocument();
  });

  it('opens a card in the editor with its photo', async () => {
    stubPhotos();
    const { user, router } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Edit your 7\.2\/10 photo/ }));
    expect(router.state.location.pathname).toBe('/editor');
    expect(router.state.location.state).toEqual({
      image: '/media/b-edit.jpg',
      score: 7.2,
      ratingLabel: 'Very Pretty',
      photoId: newer.id,
      photoType: 'face',
    });
  });

  it('edits in the Photo Details dialog, then undoes (writing the image back) and redoes', async () => {
    const edits = ['/media/e1.jpg', '/media/e2.jpg'];
    const fetchMock = stubPhotos({
      'POST /functions/v1/edit-photo': () =>
        json({ editedImageUrl: edits.shift(), editsRemaining: 4, operations: ['background'], engine: 'builtin' }),
      [`PATCH /api/v1/photos/${older.id}`]: () => json(older),
    });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 8\.8\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Edit Photo' }));

    for (const tab of ['Background', 'Hair', 'Outfit']) expect(within(dialog).getByRole('tab', { name: tab })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upscale to 4K' })).toBeEnabled();
    const edit = within(dialog).getByRole('button', { name: 'Edit' });
    expect(edit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Custom prompt'), '   ');
    expect(edit).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Blur Background' }));
    expect(await screen.findByText('Photo edited successfully!')).toBeInTheDocument();
    expect(within(dialog).getByTestId('after-image')).toHaveAttribute('src', '/media/e1.jpg');
    for (const name of ['Download', 'Undo', 'Redo', 'Edit Again', 'Download HD Version', 'X/Twitter', 'Facebook', 'Instagram', 'TikTok']) {
      expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
    }
    const [first] = await Promise.all(callsTo(fetchMock, 'POST', '/functions/v1/edit-photo').map((request) => request.json()));
    expect(first).toEqual({ imageUrl: older.original_image_url, prompt: 'Blur the background', photoId: older.id });

    await user.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undo successful!')).toBeInTheDocument();
    const [patch] = callsTo(fetchMock, 'PATCH', `/api/v1/photos/${older.id}`);
    expect(await patch!.json()).toEqual({ editedImageUrl: null });
    expect(within(dialog).getByTestId('after-image')).toHaveAttribute('src', older.original_image_url);

    await user.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('No edits to undo')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Redo' }));
    await waitFor(() => expect(within(dialog).getByTestId('after-image')).toHaveAttribute('src', '/media/e2.jpg'));
    const bodies = await Promise.all(callsTo(fetchMock, 'POST', '/functions/v1/edit-photo').map((request) => request.json()));
    expect(bodies[1]).toEqual({ imageUrl: older.original_image_url, prompt: 'Blur the background', photoId: older.id });
  });

  it('shows the catalogue’s messages when a dashboard edit or undo fails', async () => {
    const answers = [
      apiError(429, 'rate_limited', 'Too many'),
      apiError(402, 'provider_credits', 'Credits'),
      apiError(500, 'internal', 'Internal error'),
    ];
    stubPhotos({
      'POST /functions/v1/edit-photo': () => answers.shift()!,
    });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 8\.8\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Edit Photo' }));
    const input = within(dialog).getByLabelText('Custom prompt');
    await user.type(input, 'make it brighter{Enter}');
    expect(await screen.findByText('Rate limit exceeded. Please try again later.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('Please add credits to continue editing.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('Failed to edit photo. Please try again.')).toBeInTheDocument();
  });

  it('says why each hair and outfit preset is disabled, and puts the built-in edits one tap away', async () => {
    const fetchMock = stubPhotos({
      'POST /functions/v1/edit-photo': () =>
        json({ editedImageUrl: '/media/retouched.jpg', editsRemaining: 4, operations: ['retouch'], engine: 'builtin' }),
    });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 8\.8\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Edit Photo' }));

    for (const [tab, presets] of [
      ['Hair', ['Blonde Hair', 'Curly Hair', 'Short Bob', 'Glossy Dark Hair']],
      ['Outfit', ['Black Suit', 'White T-Shirt', 'Evening Dress', 'Denim Jacket']],
    ] as const) {
      await user.click(within(dialog).getByRole('tab', { name: tab }));
      for (const name of presets) {
        const button = within(dialog).getByRole('button', { name });
        expect(button).toBeDisabled();
        expect(button).toHaveAccessibleDescription('Needs generative AI');
      }
      const alternatives = within(dialog).getByTestId('built-in-alternatives');
      expect(alternatives).toHaveTextContent('Hair and outfit changes need the generative AI editor');
      expect(within(alternatives).getAllByRole('button').map((button) => button.textContent)).toEqual([
        'Retouch Skin',
        'Enhance',
        'Studio White',
        'Blur Background',
        'Warm Style',
        'Cinematic Style',
      ]);
    }

    // One tap: the edit runs on the photo straight away.
    await user.click(within(within(dialog).getByTestId('built-in-alternatives')).getByRole('button', { name: 'Retouch Skin' }));
    expect(await screen.findByText('Photo edited successfully!')).toBeInTheDocument();
    const [sent] = callsTo(fetchMock, 'POST', '/functions/v1/edit-photo');
    expect(await sent!.json()).toEqual({ imageUrl: older.original_image_url, prompt: 'Retouch skin', photoId: older.id });
  });

  it('enables hair and outfit presets, without reasons or alternatives, when the generative editor is on', async () => {
    stubPhotos({ 'GET /api/v1/edits/quota': () => json(quota(5, { generative: true })) });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 8\.8\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Edit Photo' }));
    await user.click(within(dialog).getByRole('tab', { name: 'Hair' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Blonde Hair' })).toBeEnabled());
    expect(within(dialog).queryByText('Needs generative AI')).toBeNull();
    expect(within(dialog).queryByTestId('built-in-alternatives')).toBeNull();
  });

  it('deletes a photo after confirmation', async () => {
    const fetchMock = stubPhotos({ [`DELETE /api/v1/photos/${older.id}`]: () => new Response(null, { status: 204 }) });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 8\.8\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this photo?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete Photo' }));
    expect(await screen.findByText('Photo deleted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `/api/v1/photos/${older.id}`)).toHaveLength(1);
  });

  it('says a photo held by the nudity check is held for review instead of offering its link', async () => {
    const message = 'Your photo is held for review. An admin will look at it before anyone else can see it.';
    const fetchMock = stubPhotos({
      [`POST /api/v1/photos/${older.id}/share`]: () =>
        json({ share_url: 'http://localhost/s/abc', card_url: 'http://localhost/s/abc/card.png', held_for_review: true, message }),
    });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 8\.8\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Share Link' }));
    expect(await within(dialog).findByText(`Held for review: ${message}`)).toBeInTheDocument();
    expect(within(dialog).queryByText('http://localhost/s/abc')).toBeNull();
    expect(within(dialog).queryByRole('heading', { name: 'Share this photo' })).toBeNull();
    expect(callsTo(fetchMock, 'POST', `/api/v1/photos/${older.id}/share`)).toHaveLength(1);
  });
});

describe('sharing from My Photos', () => {
  it('creates a link that lasts 24 hours, then turns it off', async () => {
    const id = newer.id;
    const fetchMock = stubPhotos({
      [`POST /api/v1/photos/${id}/share`]: () =>
        json({
          share_url: 'https://prettyscore.example/s/abc',
          card_url: 'https://prettyscore.example/s/abc/card.png',
          expires_at: '2030-01-02T03:04:00Z',
        }),
      [`DELETE /api/v1/photos/${id}/share`]: () => new Response(null, { status: 204 }),
    });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (2)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 7\.2\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    await user.click(within(dialog).getByRole('button', { name: /^Share$/ }));
    const lasts = within(dialog).getByRole('group', { name: 'The public link works' });
    expect(within(lasts).getByRole('radio', { name: 'Until I turn it off' })).toBeChecked();
    await user.click(within(lasts).getByRole('radio', { name: '24 hours' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Share Link' }));

    expect(await within(dialog).findByTestId('share-panel')).toBeInTheDocument();
    const [sent] = callsTo(fetchMock, 'POST', `/api/v1/photos/${id}/share`);
    expect(await sent!.json()).toEqual({ expires_in: '24h' });
    expect(within(dialog).getByTestId('share-link-lifetime')).toHaveTextContent(/^The link works until .*2030/);

    await user.click(within(dialog).getByRole('button', { name: 'Turn Off Link' }));
    expect(await within(dialog).findByRole('button', { name: 'Create Share Link' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `/api/v1/photos/${id}/share`)).toHaveLength(1);
    expect(within(dialog).queryByTestId('share-panel')).not.toBeInTheDocument();
  });

  it('opens a photo shared already with its link and says it works until turned off', async () => {
    const shared: Photo = {
      ...older,
      share: { share_url: 'https://prettyscore.example/s/old', card_url: 'https://prettyscore.example/s/old/card.png', expires_at: null, held_for_review: false, message: 'Your result is ready to share!' },
    };
    stubApi({ 'GET /api/v1/photos': () => json([shared]), 'GET /api/v1/edits/quota': () => json(quota(5)) });
    const { user } = renderApp('/dashboard', { user: 'signed-in' });
    await screen.findByRole('heading', { name: 'My Photos (1)' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /^Details of your 8\.8\/10 photo/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo Details' });
    expect(within(dialog).getByTestId('share-panel')).toBeInTheDocument();
    expect(within(dialog).getByTestId('share-link-lifetime')).toHaveTextContent('The link works until you turn it off.');
  });
});
