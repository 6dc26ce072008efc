import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AccountPage } from '@/features/account/components/account-page';
import { PaymentsCard, SubscriptionCard } from '@/features/premium/components/billing-cards';
import { MyDecisionsCard } from '@/features/reports/components/my-decisions-card';

export default function AccountRoute() {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
      <PageTitle title={paths.account.title} />
      <AccountPage>
        <SubscriptionCard />
        <PaymentsCard />
        <MyDecisionsCard />
      </AccountPage>
    </div>
  );
}
