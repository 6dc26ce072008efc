import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

function accountGroup() {
  return screen.getByRole('group', { name: 'Account' });
}

describe('the shared layout', () => {
  it('has a banner, the site menu, a main region and a footer', async () => {
    renderApp('/how-it-works');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent('PrettyScore');
    expect(screen.getByRole('navigation', { name: 'Site menu' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    for (const name of ['How It Works', 'Privacy', 'Partners']) {
      expect(within(footer).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(footer).toHaveTextContent(/for entertainment/i);
  });

  describe('signed out', () => {
    it('shows a Sign In button in the header that goes to /auth', async () => {
      renderApp('/');
      const header = screen.getByRole('banner');
      const signIn = await within(header).findByRole('link', { name: 'Sign In' });
      expect(signIn).toHaveAttribute('href', '/auth');
      expect(within(header).queryByRole('button', { name: /^Open user menu/ })).not.toBeInTheDocument();
    });

    it('shows only Sign In in the side menu’s Account group', async () => {
      renderApp('/');
      await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign In' });
      const links = within(accountGroup()).getAllByRole('link');
      expect(links.map((link) => link.textContent)).toEqual(['Sign In']);
    });
  });

  describe('signed in', () => {
    it('offers the account links and Sign Out in the header’s user menu', async () => {
      const { user } = renderApp('/', { user: 'signed-in' });
      const trigger = await screen.findByRole('button', { name: /^Open user menu/ });
      expect(within(screen.getByRole('banner')).queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();

      await user.click(trigger);
      const menu = await screen.findByRole('menu');
      expect(menu).toHaveTextContent('ada@example.com');
      const items = within(menu).getAllByRole('menuitem');
      expect(items.map((item) => item.textContent)).toEqual([
        'My Account',
        'User Dashboard',
        'My Photos',
        'Premium',
        'Sign Out',
      ]);
      expect(within(menu).getByRole('menuitem', { name: 'My Photos' })).toHaveAttribute('href', '/dashboard');
      expect(within(menu).getByRole('menuitem', { name: 'Premium' })).toHaveAttribute('href', '/premium');
    });

    it('shows User Dashboard, My Photos and Contact Requests in the Account group', async () => {
      renderApp('/', { user: 'signed-in' });
      await screen.findByRole('button', { name: /^Open user menu/ });
      const links = within(accountGroup()).getAllByRole('link');
      expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
        ['User Dashboard', '/user-dashboard'],
        ['My Photos', '/dashboard'],
        ['Contact Requests', '/contestant-requests'],
      ]);
    });

    it('signs out globally, goes home and says so', async () => {
      const { user, router, auth } = renderApp('/how-it-works', { user: 'signed-in' });
      await user.click(await screen.findByRole('button', { name: /^Open user menu/ }));
      await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));

      expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
      expect(auth.mocks.signOut).toHaveBeenCalledTimes(1);
      expect(auth.mocks.signOut).toHaveBeenCalledWith();
      expect(router.state.location.pathname).toBe('/');
      expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    });

    it('says so and stays put when sign-out fails', async () => {
      const { user, router } = renderApp('/how-it-works', { user: 'signed-in', signOutError: true });
      await user.click(await screen.findByRole('button', { name: /^Open user menu/ }));
      await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));

      expect(await screen.findByText('Failed to sign out')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/how-it-works');
      expect(screen.getByRole('button', { name: /^Open user menu/ })).toBeInTheDocument();
    });
  });

  describe('for an administrator', () => {
    const ROLE = '/api/v1/admin/role';

    it('shows the Admin group in the side menu and the account menu when the server says so', async () => {
      stubApi({ [`GET ${ROLE}`]: () => json({ admin: true }) });
      const { user } = renderApp('/how-it-works', { user: 'signed-in' });
      const group = await screen.findByRole('group', { name: 'Admin' }, { timeout: 5000 });
      expect(within(group).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
        '/admin/partners',
        '/admin/payouts',
        '/admin/payments',
        '/admin/leaderboard',
        '/admin/opportunities',
        '/admin/verification',
        '/admin/reports',
        '/admin/audit',
      ]);
      await user.click(screen.getByRole('button', { name: /^Open user menu/ }));
      const menu = await screen.findByRole('menu');
      const adminItems = within(within(menu).getByRole('group', { name: 'Admin' })).getAllByRole('menuitem');
      expect(adminItems.map((item) => item.textContent)).toEqual([
        'Partner Management',
        'Payouts',
        'Payments',
        'Leaderboard Moderation',
        'Opportunity Applications',
        'Verification Requests',
        'Reports',
        'Audit Log',
      ]);
      expect(within(menu).getByRole('menuitem', { name: 'Audit Log' })).toHaveAttribute('href', '/admin/audit');
    });

    it('shows no Admin links to a user the server says is not an admin, nor to a visitor (who is not asked)', async () => {
      const fetchMock = stubApi({ [`GET ${ROLE}`]: () => json({ admin: false }) });
      const first = renderApp('/how-it-works', { user: 'signed-in' });
      await waitFor(() => expect(callsTo(fetchMock, 'GET', ROLE)).toHaveLength(1), { timeout: 5000 });
      await screen.findByRole('button', { name: /^Open user menu/ });
      expect(screen.queryByRole('group', { name: 'Admin' })).toBeNull();
      await first.user.click(screen.getByRole('button', { name: /^Open user menu/ }));
      expect(within(await screen.findByRole('menu')).queryByText('Partner Management')).toBeNull();
      first.unmount();

      const visitor = stubApi({ [`GET ${ROLE}`]: () => json({ admin: true }) });
      renderApp('/how-it-works');
      await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign In' });
      expect(screen.queryByRole('group', { name: 'Admin' })).toBeNull();
      expect(callsTo(visitor, 'GET', ROLE)).toHaveLength(0);
    });
  });
});
