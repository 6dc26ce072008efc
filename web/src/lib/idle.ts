let announceShown: () => void = () => {};
const pageShown = new Promise<void>((resolve) => {
  announceShown = resolve;
});
let fallback: Promise<void> | undefined;

/**
 * AppLayout calls this once the first page's content is on screen (its
 * Suspense has resolved): until then, code for later is not even asked for,
 * so it cannot take a phone's bandwidth from the page being opened.
 */
export function markPageShown(): void {
  announceShown();
}

/** Resolves once the document's load event has fired (its images are in). */
function loaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/**
 * Runs `task` once the first page is on screen, the document has loaded (the
 * page's own images first) and the browser is idle (at the latest 2 s later;
 * 200 ms later where the browser cannot say, as in Safari and jsdom). With no
 * page ever shown (no AppLayout), it waits 5 s instead. Returns a cancel. For work a page will want but need not wait for:
 * loading the code of what comes next.
 */
export function whenIdle(task: () => void): () => void {
  let cancelled = false;
  let cancel = () => {};
  fallback ??= new Promise((resolve) => window.setTimeout(resolve, 5000));
  void Promise.race([pageShown, fallback])
    .then(loaded)
    .then(() => {
      if (cancelled) return;
      if (typeof window.requestIdleCallback === 'function') {
        const id = window.requestIdleCallback(() => task(), { timeout: 2000 });
        cancel = () => window.cancelIdleCallback(id);
      } else {
        const id = window.setTimeout(task, 200);
        cancel = () => window.clearTimeout(id);
      }
    });
  return () => {
    cancelled = true;
    cancel();
  };
}
