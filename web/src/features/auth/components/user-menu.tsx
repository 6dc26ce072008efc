import { ChevronDownIcon, LogInIcon, LogOutIcon } from 'lucide-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { getUserMenu } from '@/components/layout/navigation';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { useShowAdminLinks } from '@/hooks/use-show-admin-links';
import { useSignOut } from '@/features/auth/api/use-sign-out';
import { useSession } from '@/lib/session';

function initialOf(email: string | undefined): string {
  return (email?.trim()[0] ?? '?').toUpperCase();
}

export function UserMenu() {
  const { status, session } = useSession();
  const { signOut, pending } = useSignOut();
  const isAdmin = useShowAdminLinks();

  if (status === 'loading') {
    return <Skeleton className="h-10 w-24 rounded-full" aria-hidden="true" />;
  }

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

  const email = session?.user.email;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" className="h-10 gap-2 pr-3 pl-1.5" aria-label="Open user menu">
          <span
            aria-hidden="true"
            className="brand-gradient-strong grid size-7 place-items-center rounded-full text-xs font-bold text-white"
          >
            {initialOf(email)}
          </span>
          <span className="hidden max-w-40 truncate sm:inline">{email ?? 'Account'}</span>
          <ChevronDownIcon className="text-muted-foreground" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>
          <span className="block text-xs font-normal text-muted-foreground">Signed in as</span>
          <span className="block truncate">{email ?? 'your account'}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {menu.items.map((item) =>
          item.kind === 'group' ? (
            <Fragment key={item.title}>
              <DropdownMenuSeparator />
              <DropdownMenuGroup aria-labelledby="user-menu-admin">
              <DropdownMenuLabel id="user-menu-admin" className="text-xs font-semibold text-muted-foreground">
                {item.title}
              </DropdownMenuLabel>
              {item.items.map((link) => (
                <DropdownMenuItem key={link.to} asChild>
                  <Link to={link.to}>
                    <link.icon aria-hidden="true" />
                    {link.title}
                  </Link>
                </DropdownMenuItem>
              ))}
              </DropdownMenuGroup>
            </Fragment>
          ) : item.kind === 'link' ? (
            <DropdownMenuItem key={item.title} asChild>
              <Link to={item.to}>
                <item.icon aria-hidden="true" />
                {item.title}
              </Link>
            </DropdownMenuItem>
          ) : (
            <Fragment key={item.title}>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                variant="destructive"
                disabled={pending}
                onSelect={() => {
                  void signOut();
                }}
              >
                <LogOutIcon aria-hidden="true" />
                {item.title}
              </DropdownMenuItem>
            </Fragment>
          ),
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
