import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SAMPLE_IMAGE, sampleAnalysis } from '@/features/score/testing/sample-analysis';
import { PENDING_RESULT_KEY } from '@/features/score/utils/pending-result';
import { dataUrlToBlob as dataUrlBlob } from '@/lib/image';
import type { FaceAnalysis } from '@/resources/analyses/analyses';
import { apiError, callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

/** What the server answers to a save (POST /api/v1/photos) and to a face analysis; each test says. */
let saveAnswer: () => Response | Promise<Response>;
let analysisAnswer: () => Response | Promise<Response>;
let fetchMock: ReturnType<typeof stubApi>;

/** The test's endpoints, beside the save and the face analysis. */
function stubServer(handlers: Parameters<typeof stubApi>[0]) {
  fetchMock = stubApi({
    'POST /api/v1/photos': () => saveAnswer(),
    'POST /api/v1/analyses/face': () => analysisAnswer(),
    ...handlers,
  });
  return fetchMock;
}

const saves = () => callsTo(fetchMock, 'POST', '/api/v1/photos');
const analyses = () => callsTo(fetchMock, 'POST', '/api/v1/analyses/face');
/** The multipart fields of the n-th save. */
const savedForm = (n = 0) => saves()[n]!.formData();
const file = (form: FormData, name: string) => form.get(name) as File;
const saved = (id: string) => () => json({ id }, 201);
const analysed = (analysis: FaceAnalysis) => () => json(analysis);

async function openResults(score = 8.3, user: 'signed-in' | 'signed-out' = 'signed-out') {
  const app = renderApp('/', { user });
  await screen.findByRole('heading', { level: 1 }, { timeout: 5000 });
  await act(() => app.router.navigate('/results', { state: { analysis: sampleAnalysis(score), image: SAMPLE_IMAGE } }));
  // (At 9.5 and more the leaderboard dialog hides the page from the accessibility tree.)
  await screen.findByTestId('score-value', {}, { timeout: 5000 });
  return app;
}

beforeEach(() => {
  saveAnswer = () => apiError(500, 'internal_error', 'No save was expected.');
  analysisAnswer = () => apiError(500, 'internal_error', 'No analysis was expected.');
  stubServer({ 'GET /api/v1/edits/quota': () => json(quota(5)) });
});

describe('the results page', () => {
  it('sends a visit without a result home', async () => {
    const { router } = renderApp('/results');
    await screen.findByRole('heading', { level: 1, name: /How pretty is your photo/ }, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the score, the label and the four breakdown bars at value / 10', async () => {
    await openResults(8.3);
    expect(screen.getByTestId('score-value')).toHaveTextContent('8.3');
    expect(screen.getByTestId('score-label')).toHaveTextContent('Gorgeous');
    const breakdown = screen.getByTestId('breakdown');
    expect(within(breakdown).getByText('8.7/10')).toBeInTheDocument();
    expect(within(breakdown).getByText('Overall Balance')).toBeInTheDocument();
    expect(screen.getByTestId('bar-symmetry')).toHaveStyle({ width: '87%' });
    expect(screen.getByTestId('bar-skinQuality')).toHaveStyle({ width: '79%' });
    expect(screen.queryByTestId('reward-banner')).toBeNull();
    expect(screen.queryByTestId('confetti')).toBeNull();
  });

  it('draws the measured landmarks and lines when asked', async () => {
    const { user } = await openResults();
    expect(screen.queryByTestId('measure-overlay')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show Measurements' }));
    expect(screen.getByRole('button', { name: 'Show Measurements' })).toHaveAttribute('aria-pressed', 'true');
    const overlay = screen.getByTestId('measure-overlay');
    expect(overlay).toHaveAttribute('viewBox', '0 0 400 500');
    expect(within(overlay).getByTestId('landmarks').querySelectorAll('circle')).toHaveLength(468);
    expect(overlay.querySelectorAll('line')).toHaveLength(3);
  });

  it('celebrates 8.5 and more with confetti', async () => {
    await openResults(8.5);
    expect(screen.getByTestId('confetti')).toHaveAttribute('aria-hidden', 'true');
  });

  it('shows Exceptional Score with its link from 9.5, and opens the leaderboard dialog', async () => {
    const { user } = await openResults(9.6);
    const dialog = await screen.findByRole('dialog', { name: 'Join the Global Leaderboard' });
    expect(dialog).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Not Now' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const banner = screen.getByTestId('reward-banner');
    expect(within(banner).getByRole('heading', { name: 'Exceptional Score' })).toBeInTheDocument();
    expect(within(banner).getByText(/top 1%/)).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: /Claim Opportunities/ })).toHaveAttribute(
      'href',
      '/claim-opportunities',
    );
  });

  it('shows ELITE BEAUTY STATUS at exactly 9.9 and WORLD RECORD at 10', async () => {
    const first = await openResults(9.9);
    expect(within(screen.getByTestId('reward-banner')).getByText('ELITE BEAUTY STATUS')).toBeInTheDocument();
    expect(screen.getByText(/\$50,000 prize/)).toBeInTheDocument();
    expect(screen.getByText(/within 48 hours/)).toBeInTheDocument();
    first.unmount();

    await openResults(10);
    const banner = screen.getByTestId('reward-banner');
    expect(within(banner).getByText('WORLD RECORD')).toBeInTheDocument();
    expect(within(banner).getByText(/\$100,000 prize/)).toBeInTheDocument();
    expect(within(banner).getByText(/within 24 hours/)).toBeInTheDocument();
  });

  it('requires a display name in the leaderboard dialog and queues the entry', async () => {
    saveAnswer = saved('p1');
    const { user } = await openResults(9.7, 'signed-in');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Join the Leaderboard' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please enter your display name');
    expect(saves()).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Display name'), '  Ada  ');
    await user.click(within(dialog).getByRole('button', { name: 'Join the Leaderboard' }));
    expect(
      await screen.findByText("You've been added to the leaderboard queue! Admins will verify your entry soon."),
    ).toBeInTheDocument();
    const entry = await savedForm();
    expect(entry.get('public_listing')).toBe('true');
    expect(entry.get('display_name')).toBe('Ada');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends anonymous users to sign in from the leaderboard dialog', async () => {
    const { user, router } = await openResults(9.5);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Display name'), 'Ada');
    await user.click(within(dialog).getByRole('button', { name: 'Join the Leaderboard' }));
    expect(await screen.findByText('Sign in to save your photos!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(saves()).toHaveLength(0);
  });

  it('offers Sign In to Save to anonymous users, keeping the result for this tab', async () => {
    const { user, router } = await openResults();
    await user.click(screen.getByRole('button', { name: 'Sign In to Save' }));
    expect(await screen.findByText('Sign in to save your photos!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(router.state.location.search).toBe('?returnTo=%2Fresults');
    expect(JSON.parse(sessionStorage.getItem(PENDING_RESULT_KEY)!)).toEqual({ analysis: sampleAnalysis(8.3), image: SAMPLE_IMAGE });
  });

  it('still goes to sign in, back to the upload page, when the browser will not keep the result', async () => {
    const { user, router } = await openResults();
    // A full tab storage (happy-dom's Storage cannot be spied on and given back, so it is swapped).
    const kept = sessionStorage;
    vi.stubGlobal('sessionStorage', {
      getItem: (key: string) => kept.getItem(key),
      removeItem: (key: string) => kept.removeItem(key),
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    });
    try {
      await user.click(screen.getByRole('button', { name: 'Sign In to Save' }));
      expect(router.state.location.pathname).toBe('/auth');
      expect(router.state.location.search).toBe('?returnTo=%2Fupload');
    } finally {
      vi.stubGlobal('sessionStorage', kept);
    }
  });

  it('saves once for a signed-in user, then says so', async () => {
    let resolve: () => void = () => {};
    saveAnswer = () => new Promise((done) => (resolve = () => done(json({ id: 'p1' }, 201))));
    const { user } = await openResults(8.3, 'signed-in');
    const button = screen.getByRole('button', { name: 'Save to My Photos' });
    await user.click(button);
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Saving...' }));
    expect(saves()).toHaveLength(1);
    expect(file(await savedForm(), 'image')).toBeInstanceOf(Blob);
    await act(async () => resolve());
    expect(await screen.findByText('Photo saved to your dashboard!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Saved' })).toBeDisabled();
  });

  /** The share endpoint for photo p7, answering with a link that ends when asked. */
  function stubShare() {
    return stubServer({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /api/v1/photos/p7/share': async (request) => {
        const { expires_in } = (await request.json()) as { expires_in: string };
        return json({
          share_url: 'https://prettyscore.example/s/p7-slug',
          card_url: 'https://prettyscore.example/s/p7-slug/card.png',
          expires_at: expires_in === 'never' ? null : '2030-01-02T03:04:05Z',
        });
      },
    });
  }

  async function sharedExpiries(fetchMock: ReturnType<typeof stubApi>) {
    const bodies = await Promise.all(callsTo(fetchMock, 'POST', '/api/v1/photos/p7/share').map((request) => request.json()));
    return bodies.map((body: { expires_in?: string }) => body.expires_in);
  }

  it('shares the saved result’s public page once it is saved, until turned off by default', async () => {
    const fetchMock = stubShare();
    saveAnswer = saved('p7');
    const { user } = await openResults(8.3, 'signed-in');
    const sms = () => screen.getByRole('link', { name: 'Text/SMS' }).getAttribute('href');
    expect(sms()).toContain(encodeURIComponent(window.location.origin));
    const lasts = screen.getByRole('group', { name: 'The public link works' });
    expect(within(lasts).getByRole('radio', { name: 'Until I turn it off' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Save to My Photos' }));
    await screen.findByRole('button', { name: 'Saved' });
    await waitFor(() => expect(sms()).toContain(encodeURIComponent('https://prettyscore.example/s/p7-slug')));
    expect(await sharedExpiries(fetchMock)).toEqual(['never']);
    expect(screen.getByTestId('share-link-lifetime')).toHaveTextContent('The link works until you turn it off.');
    expect(screen.queryByRole('group', { name: 'The public link works' })).toBeNull();
  });

  it('makes the saved result’s link last 24 hours when chosen, and says until when', async () => {
    const fetchMock = stubShare();
    saveAnswer = saved('p7');
    const { user } = await openResults(8.3, 'signed-in');
    const lasts = screen.getByRole('group', { name: 'The public link works' });
    await user.click(within(lasts).getByText('24 hours'));
    expect(within(lasts).getByRole('radio', { name: '24 hours' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Save to My Photos' }));
    const lifetime = await screen.findByTestId('share-link-lifetime');
    expect(await sharedExpiries(fetchMock)).toEqual(['24h']);
    expect(lifetime).toHaveTextContent(/^The link works until .*2030/);
  });

  it('offers no link lifetime to anonymous users, who cannot save here', async () => {
    await openResults(8.3, 'signed-out');
    expect(screen.getByRole('button', { name: 'Sign In to Save' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'The public link works' })).toBeNull();
  });

  it('says Failed to save photo when the save fails', async () => {
    saveAnswer = () => apiError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
    const { user } = await openResults(8.3, 'signed-in');
    await user.click(screen.getByRole('button', { name: 'Save to My Photos' }));
    expect(await screen.findByText('Failed to save photo')).toBeInTheDocument();
  });

  it('copies the Instagram message and the link', async () => {
    const { user } = await openResults();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Instagram' }));
    expect(await screen.findByText('Message copied! Open Instagram and paste to share.')).toBeInTheDocument();
    expect(writeText).toHaveBeenLastCalledWith(expect.stringContaining('8.3/10'));
    await user.click(screen.getByRole('button', { name: 'TikTok' }));
    expect(await screen.findByText('Message copied! Open TikTok to share')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(await screen.findByText('Link copied to clipboard!')).toBeInTheDocument();
    expect(writeText).toHaveBeenLastCalledWith(window.location.origin);
  });

  it('opens X and Facebook in a new window, and links SMS and email', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: 'X/Twitter' }));
    expect(open).toHaveBeenLastCalledWith(expect.stringMatching(/^https:\/\/twitter\.com\/intent\/tweet\?text=/), '_blank', expect.any(String));
    expect(await screen.findByText('Opening X (Twitter)...')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Facebook' }));
    expect(open).toHaveBeenLastCalledWith(expect.stringMatching(/facebook\.com\/sharer/), '_blank', expect.any(String));
    expect(screen.getByRole('link', { name: 'Text/SMS' })).toHaveAttribute('href', expect.stringMatching(/^sms:/));
    expect(screen.getByRole('link', { name: 'Email' })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });

  it('links to Try Again, premium, claim opportunities, partners and the editor', async () => {
    await openResults();
    expect(screen.getByRole('link', { name: 'Try Again' })).toHaveAttribute('href', '/upload');
    expect(screen.getByRole('link', { name: /Go Premium/ })).toHaveAttribute('href', '/premium');
    expect(screen.getByRole('link', { name: /Claim Opportunities/ })).toHaveAttribute('href', '/claim-opportunities');
    expect(screen.getByRole('link', { name: /Become a Partner/ })).toHaveAttribute('href', '/partners/apply');
    expect(screen.getByRole('link', { name: /Open in the Editor/ })).toHaveAttribute('href', '/editor');
  });
});

describe('AI edits on the results page', () => {
  const edited = (url: string, editsRemaining: number | null) =>
    json({ editedImageUrl: url, editsRemaining, operations: ['upscale'], engine: 'builtin' });

  it('upscales, shows the before/after, then edits the edited image with a custom prompt', async () => {
    const answers = [edited('/media/e1.jpg', 4), edited('/media/e2.jpg', 3)];
    const fetchMock = stubServer({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/edit-photo': () => answers.shift()!,
    });
    const { user } = await openResults();
    const card = screen.getByTestId('ai-edit-card');
    expect(within(card).getByRole('heading', { name: 'Quick AI Enhancements' })).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByTestId('edits-remaining')).toHaveTextContent('5 free edits left'));
    expect(screen.queryByTestId('before-after')).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Upscale' }));
    expect(await screen.findByText('Photo upscaled! 4 free edits remaining.')).toBeInTheDocument();
    expect(screen.getByTestId('before-image')).toHaveAttribute('src', SAMPLE_IMAGE);
    expect(screen.getByTestId('after-image')).toHaveAttribute('src', '/media/e1.jpg');
    expect(screen.getByRole('slider', { name: 'Before and after comparison' })).toHaveValue('50');
    expect(within(card).getByTestId('edits-remaining')).toHaveTextContent('4 free edits left');
    expect(localStorage.getItem('prettyScoreEditsRemaining')).toBe('4');

    await user.type(within(card).getByLabelText('Describe your edit'), 'make it brighter{Enter}');
    expect(await screen.findByText('Photo edited! 3 free edits remaining.')).toBeInTheDocument();
    const bodies = await Promise.all(callsTo(fetchMock, 'POST', '/functions/v1/edit-photo').map((request) => request.json()));
    expect(bodies).toEqual([
      { imageUrl: SAMPLE_IMAGE, prompt: 'Upscale' },
      { imageUrl: '/media/e1.jpg', prompt: 'make it brighter' },
    ]);
    expect(screen.getByTestId('after-image')).toHaveAttribute('src', '/media/e2.jpg');
    expect(screen.getByRole('link', { name: /Open in the Editor/ })).toHaveAttribute('href', '/editor');
  });

  it('asks for an instruction when the custom edit is blank', async () => {
    const fetchMock = stubServer({ 'GET /api/v1/edits/quota': () => json(quota(5)) });
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: 'Apply Edit' }));
    expect(await screen.findByText('Please enter an editing instruction')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/functions/v1/edit-photo')).toHaveLength(0);
  });

  it('disables every edit button at zero and offers Premium', async () => {
    stubServer({ 'GET /api/v1/edits/quota': () => json(quota(0)) });
    await openResults();
    const notice = await screen.findByTestId('out-of-edits');
    expect(notice).toHaveTextContent("You've used all your free edits!");
    expect(within(notice).getByRole('link', { name: 'Go Premium' })).toHaveAttribute('href', '/premium');
    const card = screen.getByTestId('ai-edit-card');
    for (const name of ['Improve Score to 10', 'Enhance', 'Upscale', 'Retouch Skin', 'Blur Background', 'Black & White', 'Apply Edit']) {
      expect(within(card).getByRole('button', { name })).toBeDisabled();
    }
    expect(within(card).getByLabelText('Describe your edit')).toBeDisabled();
  });

  it('after an enhancement, Analyze scores the edited image and shows the new score', async () => {
    const fetchMock = stubServer({
      'GET /api/v1/edits/quota': () => json(quota(2)),
      'POST /functions/v1/edit-photo': () => edited('/media/better.jpg', 1),
      'GET /media/better.jpg': () => new Response('jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
    });
    analysisAnswer = analysed(sampleAnalysis(9.1, { ratingLabel: 'Exceptional' }));
    const { user } = await openResults(8.3);
    await user.click(screen.getByRole('button', { name: 'Improve Score to 10' }));
    expect(await screen.findByText('Photo enhanced! 1 free edit remaining.')).toBeInTheDocument();
    expect(screen.getByTestId('analyze-hint')).toHaveTextContent('Click Analyze to see your new score!');
    await user.click(screen.getByRole('button', { name: 'Analyze' }));
    await waitFor(() => expect(screen.getByTestId('score-value')).toHaveTextContent('9.1'));
    expect(await screen.findByText('Your edited photo scores 9.1/10!')).toBeInTheDocument();
    expect(screen.getByTestId('score-label')).toHaveTextContent('Exceptional');
    expect(callsTo(fetchMock, 'GET', '/media/better.jpg')).toHaveLength(1);
    expect(await file(await analyses()[0]!.formData(), 'image').text()).toBe('jpeg');
  });

  it('shows the catalogue’s messages when an edit fails', async () => {
    const answers = [
      apiError(429, 'rate_limited', 'Rate limit exceeded. Please try again later.'),
      apiError(500, 'internal', 'Internal error'),
      apiError(403, 'free_edits_used', "You've used all your free edits. Upgrade to Premium for unlimited edits!"),
    ];
    stubServer({
      // The server's count: none left once it refused for the quota.
      'GET /api/v1/edits/quota': () => json(quota(answers.length > 0 ? 3 : 0)),
      'POST /functions/v1/edit-photo': () => answers.shift()!,
    });
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: 'Upscale' }));
    expect(await screen.findByText('Rate limit exceeded. Please try again later.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enhance' }));
    expect(await screen.findByText('Failed to enhance photo. Please try again.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retouch Skin' }));
    expect(
      await screen.findByText("You've used all your free edits. Upgrade to Premium for unlimited edits!"),
    ).toBeInTheDocument();
    // The server said none are left, whatever the browser believed.
    expect(await screen.findByTestId('out-of-edits')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upscale' })).toBeDisabled();
  });
});

describe('Sign In to Save', () => {
  it('comes back from signing in to the same result with its AI edits, and saves it', async () => {
    stubServer({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/edit-photo': () =>
        json({ editedImageUrl: '/media/tmp/e1.jpg?token=t', editsRemaining: 4, operations: ['enhance'], engine: 'builtin' }),
      'GET /media/tmp/e1.jpg': () => new Response('edited-jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
    });
    saveAnswer = saved('p9');
    const app = await openResults(8.3);
    await app.user.click(screen.getByRole('button', { name: 'Enhance' }));
    expect(await screen.findByText('Photo enhanced! 4 free edits remaining.')).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Sign In to Save' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/auth'));
    await act(async () => app.auth.signIn());

    // Back on /results: the same score, the edit as 'after', and the hint still asks for Analyze.
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/results'), { timeout: 5000 });
    expect(await screen.findByTestId('score-value')).toHaveTextContent('8.3');
    expect(screen.getByTestId('before-image')).toHaveAttribute('src', SAMPLE_IMAGE);
    expect(screen.getByTestId('after-image')).toHaveAttribute('src', '/media/tmp/e1.jpg?token=t');
    expect(screen.getByTestId('analyze-hint')).toHaveTextContent('Click Analyze to see your new score!');
    // Taken: a later visit to /results without a result goes home again.
    expect(sessionStorage.getItem(PENDING_RESULT_KEY)).toBeNull();

    await app.user.click(screen.getByRole('button', { name: 'Save to My Photos' }));
    expect(await screen.findByText('Photo saved to your dashboard!')).toBeInTheDocument();
    // The original as the photo (the server scores it), the edit beside it.
    const form = await savedForm();
    expect(file(form, 'image').type).toBe('image/png');
    expect(await file(form, 'image').text()).toBe(await dataUrlBlob(SAMPLE_IMAGE).text());
    expect(await file(form, 'edited_image').text()).toBe('edited-jpeg');
    // Saved: the result stays on screen, edit and score as they were, and nothing waits in the tab.
    expect(screen.getByRole('button', { name: 'Saved' })).toBeDisabled();
    expect(screen.getByTestId('after-image')).toHaveAttribute('src', '/media/tmp/e1.jpg?token=t');
    expect(screen.getByTestId('score-value')).toHaveTextContent('8.3');
    expect(sessionStorage.getItem(PENDING_RESULT_KEY)).toBeNull();
  });

  it('keeps the edited image’s own score when the user had asked for it', async () => {
    stubServer({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/edit-photo': () =>
        json({ editedImageUrl: '/media/tmp/e2.jpg', editsRemaining: 4, operations: ['enhance'], engine: 'builtin' }),
      'GET /media/tmp/e2.jpg': () => new Response('jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
    });
    analysisAnswer = analysed(sampleAnalysis(9.1, { ratingLabel: 'Exceptional' }));
    const app = await openResults(8.3);
    await app.user.click(screen.getByRole('button', { name: 'Improve Score to 10' }));
    await screen.findByText('Photo enhanced! 4 free edits remaining.');
    await app.user.click(screen.getByRole('button', { name: 'Analyze' }));
    await waitFor(() => expect(screen.getByTestId('score-value')).toHaveTextContent('9.1'));

    await app.user.click(screen.getByRole('button', { name: 'Sign In to Save' }));
    await act(async () => app.auth.signIn());
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/results'), { timeout: 5000 });
    expect(await screen.findByTestId('score-value')).toHaveTextContent('9.1');
    expect(screen.getByTestId('score-label')).toHaveTextContent('Exceptional');
    expect(screen.getByTestId('analyze-hint')).toHaveTextContent('Want to know what your edited photo scores?');
  });
});

describe('Saving an edited result', () => {
  it('saves the original with the server’s score and the edit beside it, and says whose score is shown', async () => {
    stubServer({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/edit-photo': () =>
        json({ editedImageUrl: '/media/tmp/e3.jpg?token=t', editsRemaining: 4, operations: ['enhance'], engine: 'builtin' }),
      'GET /media/tmp/e3.jpg': () => new Response('edited-jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
    });
    analysisAnswer = analysed(sampleAnalysis(9.1, { ratingLabel: 'Exceptional' }));
    saveAnswer = saved('p3');
    const { user } = await openResults(8.3, 'signed-in');
    expect(screen.queryByTestId('score-subject')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Improve Score to 10' }));
    await screen.findByText('Photo enhanced! 4 free edits remaining.');
    // An edit alone does not change the score: it is still the original's.
    expect(screen.getByTestId('score-value')).toHaveTextContent('8.3');
    expect(screen.getByTestId('score-subject')).toHaveTextContent('Score of your original photo');
    expect(analyses()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Analyze' }));
    await waitFor(() => expect(screen.getByTestId('score-value')).toHaveTextContent('9.1'));
    expect(screen.getByTestId('score-subject')).toHaveTextContent('Score of your edited photo. Saving keeps your original photo’s score.');

    await user.click(screen.getByRole('button', { name: 'Save to My Photos' }));
    expect(await screen.findByText('Photo saved to your dashboard!')).toBeInTheDocument();
    expect(saves()).toHaveLength(1);
    const form = await savedForm();
    expect(await file(form, 'image').text()).toBe(await dataUrlBlob(SAMPLE_IMAGE).text());
    expect(await file(form, 'edited_image').text()).toBe('edited-jpeg');
    expect(form.has('score')).toBe(false);
  });

  it('saves the photo alone when there is no edit', async () => {
    saveAnswer = saved('p4');
    const { user } = await openResults(8.3, 'signed-in');
    await user.click(screen.getByRole('button', { name: 'Save to My Photos' }));
    await screen.findByText('Photo saved to your dashboard!');
    const form = await savedForm();
    expect(await file(form, 'image').text()).toBe(await dataUrlBlob(SAMPLE_IMAGE).text());
    expect(form.get('edited_image')).toBeNull();
  });

  it('shows the server’s words when the photo turns out damaged', async () => {
    saveAnswer = () => apiError(422, 'image_incomplete', 'This photo looks damaged or incomplete. Please choose it again.');
    const { user } = await openResults(8.3, 'signed-in');
    await user.click(screen.getByRole('button', { name: 'Save to My Photos' }));
    expect(await screen.findByText('This photo looks damaged or incomplete. Please choose it again.')).toBeInTheDocument();
  });
});

describe('Download Photo', () => {
  function captureDownloads() {
    const names: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:photo');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    return names;
  }

  it('downloads the photo as it is now, named original or edited, with the spec’s messages', async () => {
    stubServer({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/edit-photo': () =>
        json({ editedImageUrl: '/media/tmp/e3.jpg', editsRemaining: 4, operations: ['upscale'], engine: 'builtin' }),
      'GET /media/tmp/e3.jpg': () => new Response('jpeg', { headers: { 'Content-Type': 'image/jpeg' } }),
    });
    const names = captureDownloads();
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: 'Download Photo' }));
    expect(await screen.findByText('Photo downloaded!')).toBeInTheDocument();
    expect(names).toEqual(['prettyscore-photo-original.png']);

    await user.click(screen.getByRole('button', { name: 'Upscale' }));
    await screen.findByText('Photo upscaled! 4 free edits remaining.');
    await user.click(screen.getByRole('button', { name: 'Download Photo' }));
    await waitFor(() => expect(names).toEqual(['prettyscore-photo-original.png', 'prettyscore-photo-edited.jpg']));
  });

  it('says Failed to download photo when the image cannot be fetched', async () => {
    stubServer({
      'GET /api/v1/edits/quota': () => json(quota(5)),
      'POST /functions/v1/edit-photo': () =>
        json({ editedImageUrl: '/media/tmp/gone.jpg', editsRemaining: 4, operations: ['upscale'], engine: 'builtin' }),
      'GET /media/tmp/gone.jpg': () => apiError(404, 'not_found', 'This image does not exist or its link has expired.'),
    });
    const names = captureDownloads();
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: 'Upscale' }));
    await screen.findByText('Photo upscaled! 4 free edits remaining.');
    await user.click(screen.getByRole('button', { name: 'Download Photo' }));
    expect(await screen.findByText('Failed to download photo')).toBeInTheDocument();
    expect(names).toEqual([]);
  });
});
