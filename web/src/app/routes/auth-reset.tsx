import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { ResetPasswordPanel } from '@/features/auth/components/reset-password-panel';

export default function AuthResetRoute() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <PageTitle title={paths.authReset.title} />
      <div className="rounded-3xl border bg-card p-6 shadow-sm sm:p-8">
        <div aria-hidden="true" className="brand-gradient mb-5 h-1.5 w-16 rounded-full" />
        <h1 className="mb-4 text-2xl font-extrabold tracking-tight sm:text-3xl">{paths.authReset.title}</h1>
        <ResetPasswordPanel />
      </div>
    </div>
  );
}
