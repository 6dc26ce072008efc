import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
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

describe('the Admin links', () => {
  /** Every admin route of the app (a new one must be linked as soon as it is in config/paths.ts). */
  const adminPaths = Object.values(paths)
    .map((page) => page.path)
    .filter((path) => path.startsWith('/admin'))
    .sort();

  it('add an Admin group, before Info, linking every admin page, only for a signed-in admin', () => {
    expect(getSidebarGroups(true, true).map((group) => group.label)).toEqual(['Main', 'Premium', 'Account', 'Admin', 'Info']);
    const admin = getSidebarGroups(true, true).find((group) => group.label === 'Admin');
    expect(admin?.items.map((item) => item.to).sort()).toEqual(adminPaths);
    expect(adminPaths).toHaveLength(8);
    expect(getSidebarGroups(true, false).some((group) => group.label === 'Admin')).toBe(false);
    expect(getSidebarGroups(false, true).some((group) => group.label === 'Admin')).toBe(false);
  });

  it('add an Admin group to the account menu, before Sign Out, only for an admin', () => {
    const menu = getUserMenu(true, true);
    if (menu.kind !== 'dropdown') throw new Error('expected the dropdown');
    expect(menu.items.map((item) => item.title)).toEqual(['My Account', 'User Dashboard', 'My Photos', 'Premium', 'Admin', 'Sign Out']);
    const group = menu.items.find((item) => item.kind === 'group');
    expect(group?.kind === 'group' ? group.items.map((item) => item.to).sort() : []).toEqual(adminPaths);
    const plain = getUserMenu(true, false);
    expect(plain.kind === 'dropdown' ? plain.items.some((item) => item.kind === 'group') : true).toBe(false);
  });
});
