import { ChevronDownIcon, LogOutIcon } from 'lucide-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import type { UserMenuItem } from '@/config/navigation';
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
import { useSignOut } from '@/features/auth/hooks/use-sign-out';

function initialOf(email: string | undefined): string {
  return (email?.trim()[0] ?? '?').toUpperCase();
}

/**
 * The signed-in user's account menu (Radix DropdownMenu). A module of its own,
 * loaded by UserMenu only when someone is signed in, so the menu code stays
 * out of a signed-out visitor's first load.
 */
export default function SignedInMenu({ email, items }: { email: string | undefined; items: UserMenuItem[] }) {
  const { signOut, pending } = useSignOut();
  return (
    <DropdownMenu>
      {/*
        The name holds the address the button shows from 640 px (WCAG 2.5.3:
        a voice user says what they see). The initial is drawn by CSS, not
        text, so the visible words are the address alone.
      */}
      <DropdownMenuTrigger asChild>
        <Button variant="outline" className="h-10 gap-2 pr-3 pl-1.5" aria-label={`Open user menu, ${email ?? 'Account'}`}>
          <span
            aria-hidden="true"
            data-initial={initialOf(email)}
            className="brand-gradient-strong grid size-7 place-items-center rounded-full text-xs font-bold text-white before:content-[attr(data-initial)]"
          />
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
        {items.map((item) =>
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
