import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { SecureAccountPanel } from '@/features/account/components/secure-account-panel';

export default function AccountSecureRoute() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <PageTitle title={paths.accountSecure.title} />
      <div className="rounded-3xl border bg-card p-6 shadow-sm sm:p-8">
        <div aria-hidden="true" className="brand-gradient mb-5 h-1.5 w-16 rounded-full" />
        <h1 className="mb-4 text-2xl font-extrabold tracking-tight sm:text-3xl">{paths.accountSecure.title}</h1>
        <SecureAccountPanel />
      </div>
    </div>
  );
}
