import { Logo } from '@/components/layout/logo';
import { SidebarTrigger } from '@/components/ui/sidebar';
import { UserMenu } from '@/features/auth/components/user-menu';
import { PremiumHeaderBadge } from '@/features/premium/components/premium-header-badge';

export function Header() {
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b border-border/70 bg-white/85 px-3 backdrop-blur-md supports-[backdrop-filter]:bg-white/75 sm:px-4">
      <SidebarTrigger />
      <Logo />
      <div className="ml-auto flex items-center">
        <PremiumHeaderBadge />
        <UserMenu />
      </div>
    </header>
  );
}
