import { Suspense, useEffect, type ReactNode } from 'react';
import { AppSidebar } from '@/app/layout/app-sidebar';
import { Footer } from '@/app/layout/footer';
import { Header } from '@/app/layout/header';
import { PageLoader } from '@/components/page-loader';
import { SidebarProvider } from '@/components/ui/sidebar';
import { markPageShown } from '@/lib/idle';

/** Header on top, the side menu on the left, the page and the footer beside it. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <SidebarProvider>
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-white px-4 py-2 font-semibold text-brand-700 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Header />
      <div className="flex flex-1">
        <AppSidebar />
        <div className="flex min-w-0 flex-1 flex-col">
          <main id="main" tabIndex={-1} className="flex-1 outline-none">
            <Suspense fallback={<PageLoader />}>
              {children}
              <PageShown />
            </Suspense>
          </main>
          <Footer />
        </div>
      </div>
    </SidebarProvider>
  );
}

/** Tells lib/idle.ts that a page's content is on screen (it renders once the Suspense around it has resolved). */
function PageShown() {
  useEffect(markPageShown, []);
  return null;
}
