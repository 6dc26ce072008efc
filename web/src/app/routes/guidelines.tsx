import { LegalPage } from '@/features/legal/legal-page';
import { TERMS_DATE, TERMS_VERSION } from '@/lib/legal';
import { guidelines } from '@/features/legal/guidelines';

export default function GuidelinesRoute() {
  return (
    <LegalPage
      title="Community Guidelines"
      version={TERMS_VERSION}
      date={TERMS_DATE}
      intro={
        <p>
          What may be posted and said on PrettyScore, in ten rules. A moderation decision names the rule it applies
          (G1 to G10); each rule keeps its number.
        </p>
      }
      sections={guidelines}
      numberLabel={(index) => `G${index + 1}`}
    />
  );
}
