import { lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '@/lib/idle';
import { loadSonner, onToastWanted } from '@/lib/toast';

const SonnerToaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

/**
 * sonner's Toaster (top centre, rich colours, a close button), put on screen
 * when the page is idle or as soon as a toast is made, whichever comes first:
 * the home page's first load carries none of sonner.
 */
export function Toaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (mounted) return;
    const show = () => setMounted(true);
    const stopListening = onToastWanted(show);
    const cancelIdle = whenIdle(show);
    return () => {
      stopListening();
      cancelIdle();
    };
  }, [mounted]);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster position="top-center" richColors closeButton />
    </Suspense>
  );
}
