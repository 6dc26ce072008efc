import { act, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const granted = () => json({ hasAccess: true, reason: 'granted', trialRemaining: 0 });
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.png', { type: 'image/png' });
const huge = () => new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });

const feet = {
  score: 8.7,
  ratingLabel: 'Beautiful',
  breakdown: { toeSymmetry: 8.4, archQuality: 9.1, skinAppearance: 8.2, overallAesthetics: 8.9 },
  qualities: { balance: 0.5, colourfulness: 0.5, composition: 0.8, exposure: 0.9, sharpness: 0.7 },
};
const hands = {
  score: 7.2,
  ratingLabel: 'Pretty',
  breakdown: { fingerProportions: 7.5, skinQuality: 7.0, nailAppearance: 6.9, overallAesthetics: 7.4 },
};

beforeAll(async () => {
  await import('./feet-upload');
  await import('./feet-results');
  await import('./hands-upload');
  await import('./hands-results');
}, 30_000);

describe('the feet and hands pages', { timeout: 20_000 }, () => {
  it('refuse a missing or oversized photo with the spec’s words', async () => {
    stubApi({ 'POST /functions/v1/check-feature-access': granted });
    const { user } = renderApp('/feet-upload', { user: 'signed-in' });
    await screen.findByRole('heading', { level: 1, name: 'Feet Beauty Score' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Get My Score' }));
    expect(await screen.findByText('Please upload a photo first')).toBeInTheDocument();
    await user.upload(screen.getByTestId('body-gallery-input'), huge());
    expect(await screen.findByText('File size must be less than 10MB')).toBeInTheDocument();
    expect(screen.queryByTestId('body-preview')).toBeNull();
  });

  it('show the server’s answer when a photo has no feet, and stay on the upload page', async () => {
    const notFeet = 'We could not find feet in this photo. Please try another one.';
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'POST /api/v1/analyses/feet': () => apiError(422, 'not_feet', notFeet),
    });
    const { user, router } = renderApp('/feet-upload', { user: 'signed-in' });
    await screen.findByRole('heading', { level: 1, name: 'Feet Beauty Score' }, { timeout: 10_000 });
    await user.upload(screen.getByTestId('body-gallery-input'), png());
    await screen.findByTestId('body-preview');
    await user.click(screen.getByRole('button', { name: 'Get My Score' }));
    expect(await screen.findByText(notFeet, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/analyses/feet')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/feet-upload');
    expect(screen.getByTestId('body-preview')).toBeInTheDocument();
  });

  it('score feet on the server, celebrate 8.5+, and save them as feet', async () => {
    let saveAnswer = () => json({ id: 'p1', photo_type: 'feet' }, 201);
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'POST /api/v1/analyses/feet': () => json(feet),
      'POST /api/v1/photos': () => saveAnswer(),
    });
    const { user, router } = renderApp('/feet-upload', { user: 'signed-in' });
    await screen.findByRole('heading', { level: 1, name: 'Feet Beauty Score' }, { timeout: 10_000 });
    await user.upload(screen.getByTestId('body-gallery-input'), png());
    await screen.findByTestId('body-preview');
    await user.click(screen.getByRole('button', { name: 'Get My Score' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Beautiful' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/feet-results');
    expect(screen.getByTestId('body-score')).toHaveTextContent('8.7out of 10');
    expect(screen.getByTestId('body-breakdown')).toHaveTextContent('Toe Symmetry8.4/10');
    expect(screen.getByTestId('body-breakdown')).toHaveTextContent('Arch Quality9.1/10');
    expect(screen.getByTestId('confetti')).toBeInTheDocument();

    saveAnswer = () => apiError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
    await user.click(screen.getByRole('button', { name: 'Save Results' }));
    expect(await screen.findByText('Failed to save results')).toBeInTheDocument();
    saveAnswer = () => json({ id: 'p1', photo_type: 'feet' }, 201);
    await user.click(screen.getByRole('button', { name: 'Save Results' }));
    expect(await screen.findByText('Saved to My Photos!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Saved' })).toBeDisabled();
    const saves = callsTo(fetchMock, 'POST', '/api/v1/photos');
    const form = await saves[1]!.formData();
    expect(form.get('photo_type')).toBe('feet');
    expect((form.get('image') as File).type).toBe('image/png');
  });

  it('show a hands score below 8.5 without confetti, and send an empty results page back', async () => {
    stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'POST /api/v1/analyses/hands': () => json(hands),
    });
    const { user, router } = renderApp('/hands-upload', { user: 'signed-in' });
    await screen.findByRole('heading', { level: 1, name: 'Hands Beauty Score' }, { timeout: 10_000 });
    await user.upload(screen.getByTestId('body-gallery-input'), png());
    await screen.findByTestId('body-preview');
    await user.click(screen.getByRole('button', { name: 'Get My Score' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Pretty' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByTestId('body-breakdown')).toHaveTextContent('Finger Proportions7.5/10');
    expect(screen.queryByTestId('confetti')).toBeNull();

    await act(async () => {
      await router.navigate('/hands-results');
    });
    expect(router.state.location.pathname).toBe('/hands-upload');
  });
});
