import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

/** The pet analysis endpoint answers what the test says. */
const analyzePet = vi.fn<() => Response | Promise<Response>>();

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'cat.png', { type: 'image/png' });

beforeEach(() => {
  analyzePet.mockReset();
  stubApi({ 'POST /api/v1/analyses/pet': () => analyzePet() });
});

describe('the pet pages', () => {
  it('offer the gallery and the rear camera, free for all users', async () => {
    renderApp('/pet-upload');
    await screen.findByRole('heading', { level: 1, name: 'Pet Cuteness Score' }, { timeout: 5000 });
    expect(screen.getByText('Free for all users!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload from Gallery' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Take a Photo' })).toBeInTheDocument();
    expect(screen.getByTestId('pet-camera-input')).toHaveAttribute('capture', 'environment');
  });

  it('walk from a photo through the analysis to the score', async () => {
    let resolve: (answer: Response) => void = () => {};
    analyzePet.mockImplementation(() => new Promise((done) => (resolve = done)));
    const { user, router } = renderApp('/pet-upload');
    await screen.findByRole('heading', { level: 1, name: 'Pet Cuteness Score' }, { timeout: 5000 });
    await user.upload(screen.getByTestId('pet-gallery-input'), png());
    expect(await screen.findByTestId('pet-preview')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "Get My Pet's Score!" }));
    expect(screen.getByRole('button', { name: 'Analyzing...' })).toBeDisabled();
    expect(screen.getByTestId('pet-analysing')).toHaveTextContent("Analyzing Your Pet's Photo...");
    expect(screen.getByText('Fur quality')).toBeInTheDocument();

    await act(async () =>
      resolve(
        json({
          score: 9,
          title: 'Absolutely Adorable!',
          qualities: { balance: 0.5, colourfulness: 0.5, composition: 0.8, exposure: 0.9, sharpness: 0.7 },
        }),
      ),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Absolutely Adorable!' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pet-results');
    expect(screen.getByTestId('pet-score')).toHaveTextContent('9out of 10');
    expect(screen.getByText('Your pet scored 9/10 on our AI cuteness analysis.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try Another Photo' })).toHaveAttribute('href', '/pet-upload');

    await user.click(screen.getByRole('button', { name: 'Share Results' }));
    expect(await screen.findByRole('dialog', { name: 'Share Results' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Instagram' })).toBeInTheDocument();
  });

  it('clear the photo with Change Photo', async () => {
    const { user } = renderApp('/pet-upload');
    await screen.findByRole('heading', { level: 1, name: 'Pet Cuteness Score' }, { timeout: 5000 });
    await user.upload(screen.getByTestId('pet-gallery-input'), png());
    await screen.findByTestId('pet-preview');
    await user.click(screen.getByRole('button', { name: 'Change Photo' }));
    expect(screen.queryByTestId('pet-preview')).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload from Gallery' })).toBeInTheDocument();
  });

  it('send /pet-results without a score back to /pet-upload', async () => {
    const { router } = renderApp('/pet-results');
    await screen.findByRole('heading', { level: 1, name: 'Pet Cuteness Score' }, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/pet-upload');
  });
});
