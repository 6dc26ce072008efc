import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const settings = {
  external: { email: true, phone: true, anonymous_users: false, google: true, apple: false, github: true, test: true },
  external_labels: { google: 'Google', github: 'GitHub', test: 'Test ID' },
};

async function openAuth(url = '/auth', options: Parameters<typeof renderApp>[1] = {}) {
  const app = renderApp(url, options);
  await screen.findByRole('tab', { name: 'Sign In' }, { timeout: 5000 });
  return app;
}

// The first import of a lazily loaded page (and its form libraries) is slow in jsdom.
beforeAll(async () => {
  await import('./auth');
}, 30_000);

describe('social sign-in on the auth page', () => {
  it('offers "Continue with" for each enabled social provider, under an "or"', async () => {
    const fetchMock = stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    await openAuth();
    const list = await screen.findByRole('list', { name: 'Other ways to sign in' });
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Continue with Google',
      'Continue with GitHub',
      'Continue with Test ID',
    ]);
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/auth/v1/settings')).toHaveLength(1);
    // Email sign-in is still there.
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('shows no buttons, and no error, when no social provider is on', async () => {
    const fetchMock = stubApi({ 'GET /auth/v1/settings': () => json({ external: { email: true, google: false } }) });
    await openAuth();
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/auth/v1/settings')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /Continue with/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows no buttons, and no error, when the settings cannot be read', async () => {
    const fetchMock = stubApi({ 'GET /auth/v1/settings': () => json({ message: 'down' }, 503) });
    const { user, auth, router } = await openAuth('/auth', { auth: { accounts: { 'ada@example.com': 'correct horse' } } });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/auth/v1/settings')).toHaveLength(1));
    expect(screen.queryByTestId('social-sign-in')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(auth.mocks.signInWithPassword).toHaveBeenCalled();
  });

  it('starts the provider sign-in back to /auth with the page to go to next, and stays busy', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user, auth } = await openAuth('/auth?returnTo=%2Fupload');
    const button = await screen.findByRole('button', { name: 'Continue with Test ID' });
    await user.dblClick(button);

    expect(auth.mocks.signInWithOAuth).toHaveBeenCalledTimes(1);
    expect(auth.mocks.signInWithOAuth).toHaveBeenCalledWith({
      provider: 'test',
      options: { redirectTo: `${window.location.origin}/auth?returnTo=%2Fupload`, queryParams: { require_date_of_birth: 'true' } },
    });
    const busy = screen.getByRole('button', { name: 'Redirecting to Test ID...' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    for (const other of ['Continue with Google', 'Continue with GitHub']) {
      expect(screen.getByRole('button', { name: other })).toBeDisabled();
    }
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(auth.mocks.signInWithOAuth).toHaveBeenCalledTimes(1);
  });

  it('comes back to the page a guard sent the user from, or to /dashboard', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const first = await openAuth('/auth', { state: { returnTo: '/account' } });
    await first.user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(first.auth.mocks.signInWithOAuth).toHaveBeenCalledWith({
      provider: 'google',
      options: { redirectTo: `${window.location.origin}/auth?returnTo=%2Faccount`, queryParams: { require_date_of_birth: 'true' } },
    });
    first.unmount();

    const second = await openAuth('/auth');
    await second.user.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    expect(second.auth.mocks.signInWithOAuth).toHaveBeenCalledWith({
      provider: 'github',
      options: { redirectTo: `${window.location.origin}/auth?returnTo=%2Fdashboard`, queryParams: { require_date_of_birth: 'true' } },
    });
  });

  it('says so and lets the user try again when the sign-in cannot start', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user, auth } = await openAuth();
    auth.mocks.signInWithOAuth.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByText('Could not start signing in with Google. Please try again.')).toBeInTheDocument();
    const again = screen.getByRole('button', { name: 'Continue with Google' });
    expect(again).toBeEnabled();
    await user.click(again);
    expect(auth.mocks.signInWithOAuth).toHaveBeenCalledTimes(2);
  });

  it('shows the error a failed provider sign-in came back with and cleans the address', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const description = 'Unverified email with test. A confirmation email has been sent to your test email';
    const error = `error=server_error&error_code=provider_email_needs_verification&error_description=${encodeURIComponent(description)}`;
    const { router } = await openAuth(`/auth?returnTo=%2Fupload&${error}#${error}`);

    expect(await screen.findByRole('alert')).toHaveTextContent(description);
    await waitFor(() => expect(router.state.location.search).toBe('?returnTo=%2Fupload'));
    expect(router.state.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('says a known failure in the user’s words', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { router } = await openAuth(
      '/auth?error=server_error&error_code=identity_already_exists&error_description=Identity+is+already+linked+to+another+user',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is already linked to another user');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('clears the old error when a new sign-in starts', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user } = await openAuth('/auth?error=access_denied');
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in was cancelled at the provider.');
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(screen.queryByText('Sign-in was cancelled at the provider.')).not.toBeInTheDocument();
  });

  it('on the Sign Up tab asks the date of birth and the terms before leaving for the provider', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user, auth } = await openAuth('/auth?returnTo=%2Fleaderboard');
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    const step = await screen.findByTestId('social-sign-up-step');
    expect(within(step).getByText('Before you continue with Google')).toBeInTheDocument();
    expect(auth.mocks.signInWithOAuth).not.toHaveBeenCalled();

    // Nothing filled in: the form says what is missing and nothing starts.
    await user.click(within(step).getByRole('button', { name: 'Continue with Google' }));
    expect(await within(step).findByText('Please enter your date of birth')).toBeInTheDocument();
    expect(within(step).getByText('Please accept the terms of service and community guidelines')).toBeInTheDocument();
    expect(auth.mocks.signInWithOAuth).not.toHaveBeenCalled();

    await user.type(within(step).getByLabelText('Date of birth'), '1990-05-17');
    await user.click(within(step).getByRole('checkbox'));
    await user.click(within(step).getByRole('button', { name: 'Continue with Google' }));
    expect(auth.mocks.signInWithOAuth).toHaveBeenCalledWith({
      provider: 'google',
      options: {
        redirectTo: `${window.location.origin}/auth?returnTo=%2Fleaderboard`,
        queryParams: { date_of_birth: '1990-05-17', terms_version: '1.0' },
      },
    });
  });

  it('refuses a minor on the Sign Up tab kindly, and sends nothing', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user, auth } = await openAuth();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    const step = await screen.findByTestId('social-sign-up-step');
    const year = new Date().getUTCFullYear() - 17;
    await user.type(within(step).getByLabelText('Date of birth'), `${year}-01-01`);
    await user.click(within(step).getByRole('checkbox'));
    await user.click(within(step).getByRole('button', { name: 'Continue with GitHub' }));
    expect(await screen.findByText(/you need to be 18 or older/)).toBeInTheDocument();
    expect(auth.mocks.signInWithOAuth).not.toHaveBeenCalled();
    // Cancel closes the step and the refusal.
    await user.click(within(step).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('social-sign-up-step')).not.toBeInTheDocument();
    expect(screen.queryByText(/you need to be 18 or older/)).not.toBeInTheDocument();
  });

  it('back from a provider with no account made, opens the Sign Up tab and says why', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const description = 'To create your PrettyScore account with Google, please tell us your date of birth and accept our terms first.';
    await openAuth(`/auth?error=access_denied&error_code=age_required&error_description=${encodeURIComponent(description)}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(description);
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  });
});
