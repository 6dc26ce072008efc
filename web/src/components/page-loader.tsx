import { LoaderCircleIcon } from 'lucide-react';

export function PageLoader() {
  return (
    <div role="status" className="flex min-h-[50vh] items-center justify-center text-muted-foreground">
      <LoaderCircleIcon className="size-8 animate-spin text-brand-600" aria-hidden="true" />
      <span className="sr-only">Loading page…</span>
    </div>
  );
}
