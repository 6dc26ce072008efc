import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const access = (hasAccess: boolean, reason: string, trialRemaining: number) => json({ hasAccess, reason, trialRemaining });
const EDITOR_HEADING = { level: 1, name: 'AI Photo Editor' } as const;

// A lazily loaded page renders slowly in jsdom the first time, more so on a loaded machine: 20 s per test.
beforeAll(async () => {
  await import('./editor');
  await import('./feet-upload');
}, 30_000);

describe('the feature gates', { timeout: 20_000 }, () => {
  it('lets a premium member straight into /editor', async () => {
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': () => access(true, 'granted', 0),
      'GET /api/v1/edits/quota': () => json(quota(null)),
    });
    renderApp('/editor', { user: 'signed-in' });
    expect(await screen.findByRole('heading', EDITOR_HEADING, { timeout: 10_000 })).toBeInTheDocument();
    const [check] = callsTo(fetchMock, 'POST', '/functions/v1/check-feature-access');
    expect(await check!.json()).toEqual({ featureName: 'ai_editor' });
    expect(callsTo(fetchMock, 'POST', '/functions/v1/record-feature-usage')).toHaveLength(0);
  });

  it('offers everyone else one free trial, which records the use, checks again and opens the editor', async () => {
    let activated = false;
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': () => (activated ? access(true, 'trial_available', 0) : access(false, 'requires_premium', 1)),
      'POST /functions/v1/record-feature-usage': () => {
        activated = true;
        return json({ message: 'Trial activated! You can use the AI editor until you save one edited photo.', access: { hasAccess: true, reason: 'trial_available', trialRemaining: 0 } });
      },
      'GET /api/v1/edits/quota': () => json(quota(5)),
    });
    const { user } = renderApp('/editor', { user: 'signed-in' });
    const gate = await screen.findByTestId('gate-trial', undefined, { timeout: 10_000 });
    expect(within(gate).getByRole('heading', { level: 1 })).toHaveTextContent('Try the AI Photo Editor for free');
    expect(within(gate).getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/premium');
    expect(screen.queryByRole('heading', EDITOR_HEADING)).not.toBeInTheDocument();

    await user.click(within(gate).getByRole('button', { name: 'Use Free Trial' }));
    expect(await screen.findByText('Trial activated! You can use the AI editor until you save one edited photo.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', EDITOR_HEADING, { timeout: 10_000 })).toBeInTheDocument();
    const [record] = callsTo(fetchMock, 'POST', '/functions/v1/record-feature-usage');
    expect(await record!.json()).toEqual({ featureName: 'ai_editor' });
    // The access is checked again after the trial is recorded.
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/functions/v1/check-feature-access')).toHaveLength(2));
  });

  it('keeps the feature closed and says Failed to activate trial when recording the trial fails', async () => {
    stubApi({
      'POST /functions/v1/check-feature-access': () => access(false, 'requires_premium', 1),
      'POST /functions/v1/record-feature-usage': () => new Response('oops', { status: 500 }),
    });
    const { user } = renderApp('/editor', { user: 'signed-in' });
    await user.click(await screen.findByRole('button', { name: 'Use Free Trial' }, { timeout: 10_000 }));
    expect(await screen.findByText('Failed to activate trial')).toBeInTheDocument();
    expect(screen.getByTestId('gate-trial')).toBeInTheDocument();
    expect(screen.queryByRole('heading', EDITOR_HEADING)).not.toBeInTheDocument();
  });

  it('offers Premium once the trial is used up', async () => {
    stubApi({ 'POST /functions/v1/check-feature-access': () => access(false, 'trial_exceeded', 0) });
    renderApp('/editor', { user: 'signed-in' });
    const gate = await screen.findByTestId('gate-premium', undefined, { timeout: 10_000 });
    expect(gate).toHaveTextContent('You have used your free trial of the AI Photo Editor.');
    expect(within(gate).getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/premium');
    expect(within(gate).queryByRole('button', { name: 'Use Free Trial' })).not.toBeInTheDocument();
  });

  it('says Failed to check feature access when the check fails, and can try again', async () => {
    const answers = [() => new Response('down', { status: 503 }), () => access(true, 'granted', 0)];
    stubApi({
      'POST /functions/v1/check-feature-access': () => answers.shift()!(),
      'GET /api/v1/edits/quota': () => json(quota(null)),
    });
    const { user } = renderApp('/editor', { user: 'signed-in' });
    const gate = await screen.findByTestId('gate-error', undefined, { timeout: 10_000 });
    expect(within(gate).getByRole('heading', { level: 1 })).toHaveTextContent('Failed to check feature access');
    expect(await screen.findByText('Failed to check feature access', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    await user.click(within(gate).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', EDITOR_HEADING, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('asks a signed-out visitor to sign in, and asks the server nothing', async () => {
    const fetchMock = stubApi({});
    renderApp('/editor');
    const gate = await screen.findByTestId('gate-sign-in', undefined, { timeout: 10_000 });
    expect(within(gate).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth?returnTo=%2Feditor');
    expect(callsTo(fetchMock, 'POST', '/functions/v1/check-feature-access')).toHaveLength(0);
  });

  it('gates feet scoring with its own feature', async () => {
    const fetchMock = stubApi({ 'POST /functions/v1/check-feature-access': () => access(false, 'requires_premium', 1) });
    renderApp('/feet-upload', { user: 'signed-in' });
    expect(await screen.findByTestId('gate-trial', undefined, { timeout: 10_000 })).toHaveTextContent('Try the Feet Score for free');
    const [check] = callsTo(fetchMock, 'POST', '/functions/v1/check-feature-access');
    expect(await check!.json()).toEqual({ featureName: 'feet_scoring' });
  });

  it('gates hands scoring too, and shows a refused check as a failed one', async () => {
    stubApi({ 'POST /functions/v1/check-feature-access': () => apiError(400, 'unknown_feature', 'Unknown feature') });
    renderApp('/hands-upload', { user: 'signed-in' });
    expect(await screen.findByTestId('gate-error', undefined, { timeout: 10_000 })).toBeInTheDocument();
  });
});
