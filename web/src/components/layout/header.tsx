import { Logo } from '@/components/layout/logo';
import { UnreadDot } from '@/components/layout/unread-badge';
import { SidebarTrigger } from '@/components/ui/sidebar';
import { UserMenu } from '@/features/auth/components/user-menu';
import { UserEventsListener } from '@/features/messages/components/user-events-listener';
import { PremiumHeaderBadge } from '@/features/premium/components/premium-header-badge';
import { useSession } from '@/lib/session';

export function Header() {
  const { session } = useSession();
  const signedIn = session !== null;
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b border-border/70 bg-white/85 px-3 backdrop-blur-md supports-[backdrop-filter]:bg-white/75 sm:px-4">
      <span className="relative inline-flex">
        <SidebarTrigger />
        {signedIn ? <UnreadDot /> : null}
        {signedIn ? <UserEventsListener /> : null}
      </span>
      <Logo />
      <div className="ml-auto flex items-center">
        <PremiumHeaderBadge />
        <UserMenu />
      </div>
    </header>
  );
}
