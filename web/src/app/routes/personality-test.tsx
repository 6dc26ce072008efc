import { PageTitle } from '@/components/layout/page-title';
import { paths } from '@/config/paths';
import { PersonalityTestPage } from '@/features/personality/components/personality-test-page';

export default function PersonalityTestRoute() {
  return (
    <>
      <PageTitle title={paths.personalityTest.title} />
      <PersonalityTestPage />
    </>
  );
}
