import { RotateCcwIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Shown when a page fails to render or its code fails to load (after a deploy, say). */
export function RouteError() {
  return (
    <div role="alert" className="mx-auto max-w-md px-4 py-20 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-3 text-muted-foreground">This page could not be shown. Reloading usually fixes it.</p>
      <Button className="mt-6" onClick={() => window.location.reload()}>
        <RotateCcwIcon aria-hidden="true" />
        Reload
      </Button>
    </div>
  );
}
