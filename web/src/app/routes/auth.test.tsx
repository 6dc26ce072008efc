import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { TERMS_VERSION } from '@/lib/legal';
import { renderApp } from '@/testing/render-app';

const accounts = { 'ada@example.com': 'correct horse' };

async function openAuth(url = '/auth', options: Parameters<typeof renderApp>[1] = {}) {
  const app = renderApp(url, { auth: { accounts }, ...options });
  await screen.findByRole('tab', { name: 'Sign In' }, { timeout: 5000 });
  return app;
}

// The first import of a lazily loaded page (and its form libraries) is slow in jsdom.
beforeAll(async () => {
  await import('./auth'); await import('./auth-reset'); await import('./account');
}, 30_000);

/** Gives an adult's date of birth (or `born`) and ticks the terms, as every sign-up must. */
async function fillAgeAndTerms(user: Awaited<ReturnType<typeof openAuth>>['user'], born = '1990-05-17') {
  const date = screen.getByLabelText('Date of birth');
  await user.clear(date);
  await user.type(date, born);
  const terms = screen.getByRole('checkbox', { name: /I accept the Terms of Service/ });
  if (!(terms as HTMLInputElement).checked) await user.click(terms);
}

describe('the auth page', () => {
  it('has Sign In and Sign Up tabs, each with email and password', async () => {
    const { user } = await openAuth();
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByPlaceholderText('Password (min 6 characters)')).toBeRequired();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/reset');

    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Password (min 6 characters)')).toBeInTheDocument();
  });

  it('asks for both fields and a password of 6 characters before calling the server', async () => {
    const { user, auth } = await openAuth();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(auth.mocks.signInWithPassword).not.toHaveBeenCalled();
  });

  it('signs in with "Welcome back!", remembers the email and goes to /dashboard', async () => {
    const { user, router } = await openAuth();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('lastLoginEmail')).toBe('ada@example.com');
  });

  it("shows the provider's message when signing in fails", async () => {
    const { user, router } = await openAuth();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid login credentials')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('signs up with the spec message and then goes to /dashboard', async () => {
    const { user, router } = await openAuth();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account created successfully! Redirecting...')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('signs up from a Contact back to the entry, with the confirmation link leading there too', async () => {
    const back = '/leaderboard?contactEntry=00000000-0000-4000-8000-0000000000a1';
    const { user, router, auth } = await openAuth(`/auth?returnTo=${encodeURIComponent(back)}`);
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(auth.mocks.signUp).toHaveBeenCalledTimes(1));
    // Without autoconfirm the mail's link is the way back: it must lead to the entry, not /dashboard.
    expect(auth.mocks.signUp.mock.calls[0]![0].options).toMatchObject({ emailRedirectTo: `${window.location.origin}${back}` });
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(back));
  });

  it('signs up with a display name in the user metadata, or without one when left blank', async () => {
    const { user, auth } = await openAuth();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    const name = screen.getByLabelText('Display name (optional)');
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    // The field takes at most 50 characters; one of only invisible characters is refused.
    expect(name).toHaveAttribute('maxLength', '50');
    await user.type(name, '\u200B\u200B');
    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Display name needs at least one visible character')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(auth.mocks.signUp).not.toHaveBeenCalled();

    await user.clear(name);
    await user.type(name, '  Grace Hopper ');
    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(auth.mocks.signUp).toHaveBeenCalledTimes(1));
    expect(auth.mocks.signUp.mock.calls[0]![0].options).toMatchObject({ data: { display_name: 'Grace Hopper' } });
  });

  it('sends no display name when the optional field is left blank', async () => {
    const { user, auth } = await openAuth();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.type(screen.getByLabelText('Display name (optional)'), '   ');
    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(auth.mocks.signUp).toHaveBeenCalledTimes(1));
    expect(auth.mocks.signUp.mock.calls[0]![0].options?.data).not.toHaveProperty('display_name');
  });

  it('asks for the date of birth and the terms, and sends both in the sign-up data', async () => {
    const { user, auth } = await openAuth();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Please enter your date of birth')).toBeInTheDocument();
    expect(screen.getByText('Please accept the terms of service and community guidelines')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Community Guidelines' })).toHaveAttribute('href', '/guidelines');
    expect(auth.mocks.signUp).not.toHaveBeenCalled();

    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(auth.mocks.signUp).toHaveBeenCalledTimes(1));
    expect(auth.mocks.signUp.mock.calls[0]![0].options?.data).toEqual({
      date_of_birth: '1990-05-17',
      terms_version: TERMS_VERSION,
    });
  });

  it('refuses a minor kindly and sends nothing', async () => {
    const { user, auth, router } = await openAuth();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(screen.getByLabelText('Email'), 'kid@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    const born = new Date();
    born.setUTCFullYear(born.getUTCFullYear() - 18);
    born.setUTCDate(born.getUTCDate() + 1);
    await fillAgeAndTerms(user, born.toISOString().slice(0, 10));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText(/you need to be 18 or older/)).toBeInTheDocument();
    expect(auth.mocks.signUp).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it("shows the provider's message for a taken address and the fallback for an exception", async () => {
    const { user, auth } = await openAuth();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('User already registered')).toBeInTheDocument();

    auth.mocks.signUp.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await fillAgeAndTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('An error occurred during signup')).toBeInTheDocument();
  });

  it('prefills the email of the last sign-in', async () => {
    localStorage.setItem('lastLoginEmail', 'ada@example.com');
    await openAuth();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('redirects at once when a session exists', async () => {
    const { router } = renderApp('/auth', { user: 'signed-in' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('redirects as soon as a session appears, to ?returnTo= when given', async () => {
    const { router, auth } = await openAuth('/auth?returnTo=%2Fupload');
    act(() => auth.signIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('asks for the authenticator code when a second factor is enrolled', async () => {
    const { user, router } = await openAuth('/auth', { auth: { accounts, totpCode: '123456' } });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const code = await screen.findByLabelText('Authentication code');
    expect(router.state.location.pathname).toBe('/auth');
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid TOTP code entered')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    // sonner keeps its toasts in module state, so an earlier test's may still be listed.
    expect((await screen.findAllByText('Welcome back!')).length).toBeGreaterThan(0);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});

describe('pages that need sign-in', () => {
  for (const path of ['/dashboard', '/user-dashboard', '/account']) {
    it(`${path} sends a signed-out visitor to /auth and back after signing in`, async () => {
      const { router, auth } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
      expect(router.state.location.search).toBe(`?returnTo=${encodeURIComponent(path)}`);
      await screen.findByRole('tab', { name: 'Sign In' }, { timeout: 5000 });
      act(() => auth.signIn());
      await waitFor(() => expect(router.state.location.pathname).toBe(path));
    });
  }

  it('follows the router state too', async () => {
    const { router, auth } = renderApp('/auth', { state: { returnTo: '/account' } });
    await screen.findByRole('tab', { name: 'Sign In' }, { timeout: 5000 });
    act(() => auth.signIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
  });
});

describe('the reset screen', () => {
  it('sends the reset link with the same message for any address', async () => {
    const { user, auth } = renderApp('/auth/reset');
    await user.type(await screen.findByLabelText('Email', {}, { timeout: 5000 }), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect((await screen.findAllByText(/Check your email for a reset link/)).length).toBeGreaterThan(0);
    expect(auth.mocks.resetPasswordForEmail).toHaveBeenCalledWith('nobody@example.com', {
      redirectTo: `${window.location.origin}/auth/reset`,
    });
  });

  it('sets a new password with the recovery session, then goes to /dashboard', async () => {
    const { user, auth, router } = renderApp('/auth/reset', { user: 'signed-in' });
    const field = await screen.findByLabelText('New password', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    await user.type(field, 'brand new pass');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(auth.mocks.updateUser).toHaveBeenCalledWith({ password: 'brand new pass' });
  });
});

describe('signing out on a page that needs sign-in', () => {
  it('goes home with "Signed out successfully", not to /auth', async () => {
    const { user, router } = renderApp('/account', { user: 'signed-in' });
    await screen.findByRole('heading', { level: 1, name: 'My Account' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: /^Open user menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
