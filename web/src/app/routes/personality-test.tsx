import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { PersonalityTestPage } from '@/features/personality/components/personality-test-page';
import { FeatureGate } from '@/features/premium/components/feature-gate';

export default function PersonalityTestRoute() {
  return (
    <>
      <PageTitle title={paths.personalityTest.title} />
      <PersonalityTestPage
        quizGate={(quiz) => (
          <FeatureGate feature="personality_test" title={paths.personalityTest.title}>
            {quiz}
          </FeatureGate>
        )}
      />
    </>
  );
}
