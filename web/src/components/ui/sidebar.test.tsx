// @vitest-environment jsdom
// (jsdom: this file relies on its cookie, storage-quota or FormData behaviour, which happy-dom differs on.)
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isSidebarShortcut,
  readSidebarCookie,
  SIDEBAR_COOKIE_MAX_AGE,
  SIDEBAR_COOKIE_NAME,
  sidebarCookie,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from './sidebar';

function State() {
  const { state } = useSidebar();
  return <output aria-label="sidebar state">{state}</output>;
}

function renderSidebar() {
  return render(
    <SidebarProvider>
      <SidebarTrigger />
      <State />
    </SidebarProvider>,
  );
}

const state = () => screen.getByRole('status', { name: 'sidebar state' }).textContent;

/** Records every string written to document.cookie, while still writing it. */
function recordCookieWrites() {
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  const writes: string[] = [];
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => descriptor.get!.call(document),
    set: (value: string) => {
      writes.push(value);
      descriptor.set!.call(document, value);
    },
  });
  return { writes, restore: () => delete (document as { cookie?: string }).cookie };
}

describe('the sidebar cookie', () => {
  it('is named sidebar_state, kept 7 days, for the whole site', () => {
    expect(SIDEBAR_COOKIE_NAME).toBe('sidebar_state');
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(60 * 60 * 24 * 7);
    expect(sidebarCookie(false)).toMatch(/^sidebar_state=false; /);
    expect(sidebarCookie(true)).toContain('max-age=604800');
    expect(sidebarCookie(true)).toContain('path=/');
  });

  it('is read back from a cookie header', () => {
    expect(readSidebarCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true')).toBe(true);
    expect(readSidebarCookie('other=1')).toBeUndefined();
    expect(readSidebarCookie('sidebar_state=maybe')).toBeUndefined();
  });
});

describe('the sidebar shortcut', () => {
  it('is ctrl+b or meta+b and nothing else', () => {
    expect(isSidebarShortcut({ key: 'b', ctrlKey: true, metaKey: false })).toBe(true);
    expect(isSidebarShortcut({ key: 'b', ctrlKey: false, metaKey: true })).toBe(true);
    expect(isSidebarShortcut({ key: 'B', ctrlKey: true, metaKey: false })).toBe(true);
    expect(isSidebarShortcut({ key: 'b', ctrlKey: false, metaKey: false })).toBe(false);
    expect(isSidebarShortcut({ key: 'n', ctrlKey: true, metaKey: false })).toBe(false);
  });
});

describe('SidebarProvider on a desktop-sized window', () => {
  let cookies: ReturnType<typeof recordCookieWrites>;
  beforeEach(() => {
    cookies = recordCookieWrites();
  });
  afterEach(() => {
    cookies.restore();
  });

  it('starts expanded and collapses and expands again with ctrl+b, writing the cookie each time', () => {
    renderSidebar();
    expect(state()).toBe('expanded');

    act(() => {
      fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    });
    expect(state()).toBe('collapsed');
    expect(cookies.writes.at(-1)).toBe(`sidebar_state=false; path=/; max-age=${60 * 60 * 24 * 7}; SameSite=Lax`);
    expect(document.cookie).toContain('sidebar_state=false');

    act(() => {
      fireEvent.keyDown(window, { key: 'b', metaKey: true });
    });
    expect(state()).toBe('expanded');
    expect(cookies.writes.at(-1)).toMatch(/^sidebar_state=true; path=\/; max-age=604800/);
  });

  it('ignores b without a modifier', () => {
    renderSidebar();
    act(() => {
      fireEvent.keyDown(window, { key: 'b' });
    });
    expect(state()).toBe('expanded');
    expect(cookies.writes).toEqual([]);
  });

  it('restores the collapsed state from the cookie', () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderSidebar();
    expect(state()).toBe('collapsed');
  });

  it('toggles from its trigger button too', async () => {
    const user = userEvent.setup();
    renderSidebar();
    const trigger = screen.getByRole('button', { name: 'Toggle sidebar' });
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await user.click(trigger);
    expect(state()).toBe('collapsed');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(cookies.writes.at(-1)).toContain('sidebar_state=false');
  });
});
