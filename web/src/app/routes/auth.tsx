import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AuthPanel } from '@/features/auth/components/auth-panel';

export default function AuthRoute() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <PageTitle title={paths.auth.title} />
      <div className="rounded-3xl border bg-card p-6 shadow-sm sm:p-8">
        <div aria-hidden="true" className="brand-gradient mb-5 h-1.5 w-16 rounded-full" />
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Welcome to PrettyScore</h1>
        <p className="mt-2 mb-6 text-sm text-muted-foreground">
          Sign in to save your scores, or create a free account.
        </p>
        <AuthPanel />
      </div>
    </div>
  );
}
