import { lazy, Suspense } from 'react';
import { Logo } from '@/app/layout/logo';
import { SidebarTrigger } from '@/components/ui/sidebar';
import { UserMenu } from '@/features/auth/components/user-menu';
import { useSession } from '@/lib/session';

// What only a signed-in user has (the unread dot, the event stream, the
// member's crown) loads with the session, not with a first visit's page.
const UnreadDot = lazy(() => import('@/app/layout/unread-badge').then((module) => ({ default: module.UnreadDot })));
const UserEventsListener = lazy(() =>
  import('@/features/messages/components/user-events-listener').then((module) => ({ default: module.UserEventsListener })),
);
const PremiumHeaderBadge = lazy(() =>
  import('@/features/premium/components/premium-header-badge').then((module) => ({ default: module.PremiumHeaderBadge })),
);

export function Header() {
  const { session } = useSession();
  const signedIn = session !== null;
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b border-border/70 bg-white/85 px-3 backdrop-blur-md supports-[backdrop-filter]:bg-white/75 sm:px-4">
      <span className="relative inline-flex">
        <SidebarTrigger />
        {signedIn ? (
          <Suspense fallback={null}>
            <UnreadDot />
            <UserEventsListener />
          </Suspense>
        ) : null}
      </span>
      <Logo />
      <div className="ml-auto flex items-center">
        {signedIn ? (
          <Suspense fallback={null}>
            <PremiumHeaderBadge />
          </Suspense>
        ) : null}
        <UserMenu />
      </div>
    </header>
  );
}
