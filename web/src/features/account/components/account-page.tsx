import { MailIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ChangePasswordCard } from '@/features/account/components/change-password-card';
import { DisplayNameCard } from '@/features/account/components/display-name-card';
import { PasskeysCard } from '@/features/account/components/passkeys-card';
import { SignInMethodsCard } from '@/features/account/components/sign-in-methods-card';
import { TwoFactorCard } from '@/features/account/components/two-factor-card';
import { YourDataCard } from '@/features/account/components/your-data-card';
import { useSession } from '@/lib/session';

/**
 * My Account: email, display name, password, sign-in methods, passkeys, two-factor authentication and the user's
 * data. `children` go after the email: the route puts other features' cards
 * there (the subscription and payments), since features never import each
 * other.
 */
export function AccountPage({ children }: { children?: ReactNode }) {
  const { session } = useSession();
  return (
    <div className="grid gap-5">
      <div>
        <div aria-hidden="true" className="brand-gradient mb-4 h-1.5 w-16 rounded-full" />
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">My Account</h1>
      </div>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <MailIcon className="size-5 text-brand-700" aria-hidden="true" />
            <span>Email</span>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <p className="text-base font-medium break-all" data-testid="account-email">
            {session?.user.email}
          </p>
        </CardContent>
      </Card>
      <DisplayNameCard />
      {children}
      <ChangePasswordCard />
      <SignInMethodsCard />
      <PasskeysCard />
      <TwoFactorCard />
      <YourDataCard />
    </div>
  );
}
