import type { ExternalToast } from 'sonner';

type Sonner = typeof import('sonner');
type Message = Parameters<Sonner['toast']['success']>[0];

let loading: Promise<Sonner> | undefined;
const wanted = new Set<() => void>();

/** sonner (about 9 KB gzipped), fetched on the first toast or by the Toaster when the page is idle. */
export function loadSonner(): Promise<Sonner> {
  loading ??= import('sonner');
  return loading;
}

/** The Toaster hears here that a toast is waiting for it; returns the unsubscribe. */
export function onToastWanted(listener: () => void): () => void {
  wanted.add(listener);
  return () => wanted.delete(listener);
}

function show(kind: 'success' | 'error' | 'info' | 'warning', message: Message, data?: ExternalToast) {
  for (const listener of wanted) listener();
  void loadSonner().then(({ toast: sonner }) => sonner[kind](message, data));
}

/**
 * The app's toasts: sonner's `toast.success/error/info/warning` and `dismiss`,
 * with sonner itself loaded on first use instead of with the home page. A
 * toast made before the Toaster is on screen is shown when it arrives (sonner
 * replays active toasts to a new Toaster). Import this, never 'sonner'
 * (eslint.config.js refuses that).
 */
export const toast = {
  success: (message: Message, data?: ExternalToast) => show('success', message, data),
  error: (message: Message, data?: ExternalToast) => show('error', message, data),
  info: (message: Message, data?: ExternalToast) => show('info', message, data),
  warning: (message: Message, data?: ExternalToast) => show('warning', message, data),
  dismiss: (id?: string | number) => {
    if (loading) void loading.then(({ toast: sonner }) => sonner.dismiss(id));
  },
};
