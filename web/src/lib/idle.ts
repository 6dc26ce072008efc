/**
 * Runs `task` once the browser is idle (at the latest after `timeout` ms), or
 * soon where it cannot tell (Safari, jsdom). Returns a cancel. For work a page
 * will want but need not wait for: loading the code of what comes next.
 */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(() => task(), { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 200);
  return () => window.clearTimeout(id);
}
