import { PageTitle } from '@/components/layout/page-title';
import type { PageInfo } from '@/config/paths';

/**
 * A page whose feature is still to be built: its title and what it is for,
 * from the spec. No sample data and no calls to the server.
 */
export function RoutePlaceholder({ page }: { page: PageInfo }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <PageTitle title={page.title} />
      <div className="rounded-3xl border bg-card p-6 shadow-sm sm:p-10">
        <div aria-hidden="true" className="brand-gradient mb-6 h-1.5 w-16 rounded-full" />
        <h1 className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{page.title}</h1>
        <p className="mt-4 text-base text-pretty text-muted-foreground sm:text-lg">{page.purpose}</p>
      </div>
    </div>
  );
}
