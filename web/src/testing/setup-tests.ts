import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';

// A findBy or waitFor waits for an event, not for a deadline: on a busy
// machine (a Rust build beside the suite) a render can take over the default
// second, so they wait up to 5 s, and a test up to 30 s (vite.config.ts).
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks the browser APIs below; Radix and the sidebar use them.
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => {
      const maxWidth = /max-width:\s*(\d+)px/.exec(query);
      const matches = maxWidth ? window.innerWidth <= Number(maxWidth[1]) : false;
      return {
        matches,
        media: query,
        onchange: null,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
        dispatchEvent: () => false,
      };
    },
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

window.scrollTo = () => {};
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

afterEach(() => {
  cleanup();
  // sonner replays every active toast to the next test's Toaster: a message must come from its own test.
  toast.dismiss();
  sessionStorage.clear();
  localStorage.clear();
  // Expire every cookie a test wrote.
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
