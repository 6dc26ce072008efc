import { describe, expect, it } from 'vitest';
import { getSidebarGroups, getUserMenu } from './navigation';

const titles = (items: { title: string }[]) => items.map((item) => item.title);

describe('the header user menu', () => {
  it('shows only a Sign In button to /auth when signed out', () => {
    expect(getUserMenu(false)).toEqual({ kind: 'sign-in-button', title: 'Sign In', to: '/auth' });
  });

  it('offers My Account, User Dashboard, My Photos, Premium and Sign Out when signed in', () => {
    const menu = getUserMenu(true);
    expect(menu.kind).toBe('dropdown');
    if (menu.kind !== 'dropdown') return;
    expect(titles(menu.items)).toEqual(['My Account', 'User Dashboard', 'My Photos', 'Premium', 'Sign Out']);
    const links = Object.fromEntries(menu.items.flatMap((item) => (item.kind === 'link' ? [[item.title, item.to]] : [])));
    expect(links).toEqual({
      'My Account': '/account',
      'User Dashboard': '/user-dashboard',
      'My Photos': '/dashboard',
      Premium: '/premium',
    });
    expect(menu.items.at(-1)).toEqual({ kind: 'sign-out', title: 'Sign Out' });
  });
});

describe('the side menu', () => {
  it('has the groups Main, Premium, Account and Info, in that order, either way', () => {
    expect(getSidebarGroups(false).map((group) => group.label)).toEqual(['Main', 'Premium', 'Account', 'Info']);
    expect(getSidebarGroups(true).map((group) => group.label)).toEqual(['Main', 'Premium', 'Account', 'Info']);
  });

  it('shows Sign In in the Account group when signed out', () => {
    const account = getSidebarGroups(false).find((group) => group.label === 'Account');
    expect(account?.items.map((item) => [item.title, item.to])).toEqual([['Sign In', '/auth']]);
  });

  it('shows User Dashboard, My Photos and Contact Requests in the Account group when signed in', () => {
    const account = getSidebarGroups(true).find((group) => group.label === 'Account');
    expect(account?.items.map((item) => [item.title, item.to])).toEqual([
      ['User Dashboard', '/user-dashboard'],
      ['My Photos', '/dashboard'],
      ['Contact Requests', '/contestant-requests'],
    ]);
  });

  it('keeps the other groups the same whether signed in or not', () => {
    const others = (signedIn: boolean) =>
      getSidebarGroups(signedIn)
        .filter((group) => group.label !== 'Account')
        .map((group) => [group.label, titles(group.items)]);
    expect(others(true)).toEqual(others(false));
  });

  it('links the main, premium and info pages of the spec', () => {
    const [main, premium, , info] = getSidebarGroups(false);
    expect(titles(main!.items)).toEqual(
      expect.arrayContaining(['Home', 'Upload', 'Leaderboard', 'Global Ranking', 'Pet Score']),
    );
    expect(titles(premium!.items)).toEqual(
      expect.arrayContaining(['Premium', 'Editor', 'Personality Test', 'Feet Score', 'Hands Score']),
    );
    expect(titles(info!.items)).toEqual(expect.arrayContaining(['How It Works', 'Privacy Policy', 'Partners']));
  });
});
