import { LogInIcon } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router';
import { getUserMenu } from '@/config/navigation';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useShowAdminLinks } from '@/hooks/use-show-admin-links';
import { useSession } from '@/lib/session';

const loadSignedInMenu = () => import('@/features/auth/components/signed-in-menu');
const SignedInMenu = lazy(loadSignedInMenu);

export function UserMenu() {
  const { status, session } = useSession();
  const isAdmin = useShowAdminLinks();

  // A session is being read: its menu's code is fetched meanwhile.
  useEffect(() => {
    if (status === 'loading') void loadSignedInMenu();
  }, [status]);

  const placeholder = <Skeleton className="h-10 w-24 rounded-full" aria-hidden="true" />;
  if (status === 'loading') return placeholder;

  const menu = getUserMenu(session !== null, isAdmin);

  if (menu.kind === 'sign-in-button') {
    return (
      <Button asChild size="sm" className="h-10">
        <Link to={menu.to}>
          <LogInIcon aria-hidden="true" />
          {menu.title}
        </Link>
      </Button>
    );
  }

  return (
    <Suspense fallback={placeholder}>
      <SignedInMenu email={session?.user.email} items={menu.items} />
    </Suspense>
  );
}
