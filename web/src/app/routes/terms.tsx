import { Link } from 'react-router';
import { LegalPage } from '@/features/legal/legal-page';
import { TERMS_DATE, TERMS_VERSION } from '@/lib/legal';
import { termsSections } from '@/features/legal/terms';

export default function TermsRoute() {
  return (
    <LegalPage
      title="Terms of Service"
      version={TERMS_VERSION}
      date={TERMS_DATE}
      intro={
        <p>
          The agreement between you and PrettyScore: who may use what, how contact fees work, and what happens when
          something goes wrong. It goes with our{' '}
          <Link to="/guidelines" className="font-semibold text-brand-700 underline underline-offset-4">
            community guidelines
          </Link>{' '}
          and our{' '}
          <Link to="/privacy" className="font-semibold text-brand-700 underline underline-offset-4">
            privacy policy
          </Link>
          .
        </p>
      }
      sections={termsSections}
    />
  );
}
