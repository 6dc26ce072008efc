import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const QUIZ = Array.from({ length: 20 }, (_, index) => ({
  index,
  topic: `Topic ${index + 1}`,
  question: `Question text ${index + 1}?`,
  options: [
    { value: 'a', label: `Option A${index + 1}` },
    { value: 'b', label: `Option B${index + 1}` },
    { value: 'c', label: `Option C${index + 1}` },
  ],
}));

const TRAITS = [
  { trait: 'energy', label: 'Social energy', score: 80 },
  { trait: 'curiosity', label: 'Curiosity', score: 55 },
  { trait: 'structure', label: 'Structure', score: 70 },
  { trait: 'harmony', label: 'Harmony', score: 40 },
  { trait: 'calm', label: 'Calm', score: 30 },
];

function result(quizType: 'basic' | 'detailed', answers: Record<string, string>) {
  return {
    id: quizType === 'basic' ? 'r1' : 'r2',
    quizType,
    score: 90,
    personalityType: 'The Leader',
    analysis:
      quizType === 'basic'
        ? 'The Leader: You set the direction and make sure things get done.'
        : 'The Leader: You set the direction.\n\nYour strengths\n- Reliability\n- Speaking up\n\nHow you work with others\nYou drive the pace.',
    // As the server answers: a basic result carries its leading trait only.
    traits: quizType === 'basic' ? TRAITS.slice(0, 1) : TRAITS,
    paid: quizType === 'detailed',
    answers,
    createdAt: '2026-11-24T10:00:00Z',
  };
}

const granted = () => json({ hasAccess: true, reason: 'granted', trialRemaining: 0 });
const allA = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [String(i), 'a']));

beforeAll(async () => {
  await import('./personality-test');
  await import('./checkout-sandbox');
}, 30_000);

afterEach(() => window.sessionStorage.clear());

describe('/personality-test', { timeout: 20_000 }, () => {
  it('asks one question at a time, needs an answer to go on, goes back, and shows the server’s result', async () => {
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'POST /functions/v1/personality-analysis': async (request) => {
        const body = (await request.clone().json()) as { answers: Record<string, string>; quizType: 'basic' };
        return json(result(body.quizType, body.answers));
      },
    });
    const { user } = renderApp('/personality-test', { user: 'signed-in' });
    const card = await screen.findByTestId('quiz-question', undefined, { timeout: 10_000 });
    expect(within(card).getByText('Question 1 of 20')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '5');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Please select an answer')).toBeInTheDocument();
    expect(screen.getByText('Question 1 of 20')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Option B1' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Question 2 of 20')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Option B1' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));

    for (let i = 2; i <= 20; i += 1) {
      await user.click(screen.getByRole('radio', { name: `Option A${i}` }));
      await user.click(screen.getByRole('button', { name: i === 20 ? 'See My Results' : 'Next' }));
    }
    expect(await screen.findByTestId('personality-type')).toHaveTextContent('The Leader');
    expect(screen.getByTestId('personality-score')).toHaveTextContent('90');
    expect(screen.getByRole('progressbar', { name: 'Social energy: 80 out of 100' })).toBeInTheDocument();
    expect(screen.getByTestId('personality-traits-hint')).toHaveTextContent('The detailed analysis shows all five');
    const [sent] = callsTo(fetchMock, 'POST', '/functions/v1/personality-analysis');
    expect(await sent!.json()).toEqual({ answers: { ...allA, '0': 'b' }, quizType: 'basic' });
    expect(screen.getByTestId('detailed-offer')).toHaveTextContent('$4.99');

    await user.click(screen.getByRole('button', { name: 'Retake the Test' }));
    expect(await screen.findByText('Question 1 of 20')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Option B1' })).not.toBeChecked();
  });

  it('shows the detailed analysis when the checkout comes back, asking again while the payment arrives', async () => {
    window.sessionStorage.setItem('prettyscore.personality.answers', JSON.stringify(allA));
    let asked = 0;
    stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'POST /functions/v1/personality-analysis': () => {
        asked += 1;
        return asked === 1 ? apiError(402, 'payment_required', 'Buy the detailed analysis ($4.99) to see it.') : json(result('detailed', allA));
      },
    });
    renderApp('/personality-test?success=true', { user: 'signed-in' });
    const analysis = await screen.findByTestId('personality-analysis', undefined, { timeout: 10_000 });
    expect(within(analysis).getByRole('heading', { name: 'How you work with others' })).toBeInTheDocument();
    expect(within(analysis).getByText('Reliability')).toBeInTheDocument();
    expect(screen.getByText('Detailed analysis')).toBeInTheDocument();
    expect(screen.getAllByRole('progressbar', { name: /out of 100$/ })).toHaveLength(5);
    expect(screen.queryByTestId('personality-traits-hint')).not.toBeInTheDocument();
    expect(screen.queryByTestId('detailed-offer')).not.toBeInTheDocument();
    expect(asked).toBe(2);
    // A toast says the payment went through.
    expect(await screen.findByText('Payment successful! Your detailed analysis is ready.')).toBeInTheDocument();
  });

  it('back from paying for a saved result, shows it detailed within seconds even though the page had it cached unpaid', async () => {
    let paid = false;
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'GET /api/v1/personality/results': () => json([paid ? { ...result('detailed', allA), id: 'r1' } : result('basic', allA)]),
      'POST /functions/v1/create-checkout': () => json({ url: '/checkout/sandbox/cs_1', sessionId: 'cs_1', amountCents: 499, currency: 'usd' }),
      'GET /api/v1/billing/sandbox/cs_1': () =>
        json({
          id: 'cs_1',
          description: 'Detailed personality analysis',
          amountCents: 499,
          renewalCents: null,
          currency: 'usd',
          mode: 'payment',
          status: 'open',
          successUrl: '/personality-test?success=true',
          cancelUrl: '/personality-test?canceled=true',
          notice: 'This is a test payment: no real card is charged and no money moves.',
        }),
    });
    const { router, user } = renderApp('/personality-test', { user: 'signed-in' });
    const offer = await screen.findByTestId('detailed-offer', undefined, { timeout: 10_000 });
    await user.click(within(offer).getByRole('button', { name: 'Get Detailed Analysis ($4.99)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_1'));
    expect(await screen.findByText('This is a test payment: no real card is charged and no money moves.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    // Paid at the provider, and back (the list in the cache is seconds old).
    paid = true;
    await act(() => router.navigate('/personality-test?success=true'));
    const heading = await screen.findByRole('heading', { name: 'How you work with others' }, { timeout: 5_000 });
    expect(screen.getByTestId('personality-analysis')).toContainElement(heading);
    expect(screen.queryByTestId('detailed-offer')).not.toBeInTheDocument();
    expect(await screen.findByText('Payment successful! Your detailed analysis is ready.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/personality/results').length).toBeGreaterThanOrEqual(2);
  });

  it('back from the checkout with no payment, waits 20 s at most and then says so', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.sessionStorage.setItem('prettyscore.personality.bought', 'r1');
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'GET /api/v1/personality/results': () => json([result('basic', allA)]),
    });
    renderApp('/personality-test?success=true', { user: 'signed-in' });
    expect(await screen.findByTestId('detailed-confirming', undefined, { timeout: 10_000 })).toHaveTextContent('We are confirming your payment…');
    // No second offer while it waits.
    expect(screen.queryByTestId('detailed-offer')).not.toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(3_100);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/personality/results').length).toBeGreaterThanOrEqual(2));
    await vi.advanceTimersByTimeAsync(17_000);
    const honest = await screen.findByTestId('detailed-no-payment');
    expect(honest).toHaveTextContent('We have not received your payment yet.');
    expect(honest).toHaveTextContent('If you left the checkout before paying, nothing was charged.');
    expect(screen.queryByTestId('detailed-confirming')).not.toBeInTheDocument();
    expect(screen.getByTestId('detailed-offer')).toBeInTheDocument();
  });

  it('buys the detailed analysis of this saved result, and says so when it was bought before', async () => {
    const fetchMock = stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'POST /functions/v1/personality-analysis': () => json(result('basic', allA)),
      'POST /functions/v1/create-checkout': () => apiError(409, 'already_purchased', 'You have already bought the detailed analysis of this result.'),
    });
    window.sessionStorage.setItem('prettyscore.personality.answers', JSON.stringify(allA));
    const { user } = renderApp('/personality-test', { user: 'signed-in' });
    const offer = await screen.findByTestId('detailed-offer', undefined, { timeout: 10_000 });
    await user.click(within(offer).getByRole('button', { name: 'Get Detailed Analysis ($4.99)' }));
    expect(await screen.findByText('You have already bought the detailed analysis of this result.')).toBeInTheDocument();
    const [sent] = callsTo(fetchMock, 'POST', '/functions/v1/create-checkout');
    const body = (await sent!.json()) as { type: string; metadata: { personality_result_id: string } };
    expect(body.type).toBe('personality_detailed');
    expect(body.metadata.personality_result_id).toBe('r1');
  });

  it('on a reload, shows a bought result as the detailed analysis, never the offer', async () => {
    window.sessionStorage.setItem('prettyscore.personality.answers', JSON.stringify(allA));
    // The server answers the saved result, which the purchase made detailed.
    stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'POST /functions/v1/personality-analysis': () => json({ ...result('detailed', allA), id: 'r1' }),
    });
    renderApp('/personality-test', { user: 'signed-in' });
    const analysis = await screen.findByTestId('personality-analysis', undefined, { timeout: 10_000 });
    expect(within(analysis).getByRole('heading', { name: 'How you work with others' })).toBeInTheDocument();
    expect(screen.queryByTestId('detailed-offer')).not.toBeInTheDocument();
    expect(screen.queryByText('Payment successful! Your detailed analysis is ready.')).not.toBeInTheDocument();
  });

  it('comes back from the checkout to the detailed analysis after the trial is used up', async () => {
    window.sessionStorage.setItem('prettyscore.personality.answers', JSON.stringify(allA));
    stubApi({
      'POST /functions/v1/check-feature-access': () => json({ hasAccess: false, reason: 'trial_exceeded', trialRemaining: 0 }),
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'POST /functions/v1/personality-analysis': () => json(result('detailed', allA)),
    });
    renderApp('/personality-test?success=true', { user: 'signed-in' });
    const analysis = await screen.findByTestId('personality-analysis', undefined, { timeout: 10_000 });
    expect(within(analysis).getByRole('heading', { name: 'Your strengths' })).toBeInTheDocument();
    expect(screen.queryByTestId('gate-premium')).not.toBeInTheDocument();
  });

  it('shows the latest saved result without the quiz, and gates only a retake', async () => {
    stubApi({
      'POST /functions/v1/check-feature-access': () => json({ hasAccess: false, reason: 'trial_exceeded', trialRemaining: 0 }),
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'GET /api/v1/personality/results': () => json([result('detailed', allA), result('basic', allA)]),
    });
    const { user } = renderApp('/personality-test', { user: 'signed-in' });
    const analysis = await screen.findByTestId('personality-analysis', undefined, { timeout: 10_000 });
    expect(within(analysis).getByRole('heading', { name: 'How you work with others' })).toBeInTheDocument();
    expect(screen.queryByTestId('detailed-offer')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retake the Test' }));
    const gate = await screen.findByTestId('gate-premium');
    expect(gate).toHaveTextContent('You have used your free trial of the Personality Test.');
    expect(screen.queryByTestId('quiz-question')).not.toBeInTheDocument();
  });

  it('says the analysis failed and keeps the answers', async () => {
    window.sessionStorage.setItem('prettyscore.personality.answers', JSON.stringify(allA));
    stubApi({
      'POST /functions/v1/check-feature-access': granted,
      'GET /api/v1/personality/quiz': () => json(QUIZ),
      'POST /functions/v1/personality-analysis': () => apiError(500, 'internal_error', 'Something went wrong on our side. Please try again.'),
    });
    renderApp('/personality-test', { user: 'signed-in' });
    expect(await screen.findByText('Failed to analyze personality', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByText('Question 20 of 20')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Option A20' })).toBeChecked();
  });
});

describe('/personality-test signed out', () => {
  it('says to log in and goes to sign in, which comes back here', async () => {
    stubApi({});
    const { router } = renderApp('/personality-test');
    expect(await screen.findByText('Please log in to take the personality test', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(router.state.location.search).toBe('?returnTo=%2Fpersonality-test');
  });
});
