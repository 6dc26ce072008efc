import { MailIcon } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { LegalPage, type LegalSection } from '@/features/legal/legal-page';
import { PRIVACY_DATE } from '@/lib/legal';
import { useAppConfig } from '@/resources/app-config/get-app-config';

function ContactAddress() {
  const config = useAppConfig();

  if (config.isPending) {
    return (
      <span role="status" className="inline-flex items-center gap-2 align-middle">
        <Skeleton className="h-5 w-48" aria-hidden="true" />
        <span className="sr-only">Loading the contact address…</span>
      </span>
    );
  }

  if (config.isError) {
    return <span>the contact address shown on this site (it could not be loaded just now; please try again later)</span>;
  }

  const email = config.data.contact_email;
  return (
    <a
      href={`mailto:${email}`}
      className="inline-flex items-center gap-1.5 font-semibold text-brand-700 underline underline-offset-4 hover:text-accent-700"
    >
      <MailIcon className="size-4" aria-hidden="true" />
      {email}
    </a>
  );
}

const sections: LegalSection[] = [
  {
    id: 'no-photo-storage',
    title: 'No photo storage',
    body: (
      <>
        <p>
          When you ask for a score, your photo is sent to our server, analysed in memory and then discarded. We do
          not keep it unless you choose to save the result to your account.
        </p>
        <p>
          Photos you save are stored privately for your account, with their EXIF and GPS metadata (such as where
          the photo was taken) removed first. Only you can see them, unless you choose to enter a photo into a
          public leaderboard or ranking.
        </p>
      </>
    ),
  },
  {
    id: 'no-data-collection',
    title: 'No data collection',
    body: (
      <>
        <p>
          We do not sell your data or build advertising profiles. We only keep what the service needs: if you
          create an account, your email address and sign-in details, your date of birth, the terms you accepted, and
          the photos and results you choose to save.
        </p>
        <p>
          We may collect anonymous usage statistics, such as which pages are visited, to keep the service running
          well and to improve it. These statistics are not linked to your photos.
        </p>
      </>
    ),
  },
  {
    id: 'date-of-birth',
    title: 'Your date of birth and the terms you accepted',
    body: (
      <>
        <p>
          The community features are for adults, so we ask for your date of birth when you sign up (or before you
          first use them). It is kept apart from your profile, where you cannot change it by mistake, and it is never
          shown to anyone else: not on the leaderboard, not to people you contact. Only an administrator can correct
          it, and each correction is recorded. If you tell us you are under 18, nothing you entered is kept.
        </p>
        <p>
          We also keep which version of our terms and guidelines you accepted, and when. Both are part of your data
          export and are deleted with your account.
        </p>
      </>
    ),
  },
  {
    id: 'reports',
    title: 'Reports',
    body: (
      <p>
        When you report something we keep the report: what it is about, the reason, what you wrote, your account or,
        without one, the email address you gave, and the decision made on it. The person reported is not told who
        reported them. Your data export lists the reports you made, the decisions about your content or account and
        your appeals. Reports and decisions are kept as long as needed to handle appeals and to show what we did;
        content removed as evidence of a crime is kept out of public view only as long as the law requires.
      </p>
    ),
  },
  {
    id: 'payouts',
    title: 'Payments and payouts',
    body: (
      <p>
        If you pay for something or receive payouts, our payment provider handles the card and bank details; we keep
        the amounts, dates and the provider's references, and the payout account you connected, because accounting
        and tax rules require us to keep such records for several years, even after an account is deleted.
      </p>
    ),
  },
  {
    id: 'how-analysis-works',
    title: 'How analysis works',
    body: (
      <p>
        Our server detects the face in your photo, locates its landmarks, and measures symmetry, proportions
        against the golden ratio, and skin texture. Those measurements are turned into a score from 1 to 10 with a
        breakdown. The analysis runs on our own servers; no other company sees your photo to score it. Scores are for
        entertainment only.
      </p>
    ),
  },
  {
    id: 'third-party-services',
    title: 'Third-party services',
    body: (
      <>
        <p>
          Some optional features rely on services run by other companies. When you use an AI photo edit, the photo
          and your instruction are sent to the image-editing service that carries out the edit. Payments for paid
          features are handled by our payment provider; we never see or store your full card number.
        </p>
        <p>Face scoring itself does not use any third-party service.</p>
      </>
    ),
  },
  {
    id: 'user-rights',
    title: 'Your rights',
    body: (
      <ul className="list-disc space-y-1 pl-5">
        <li>See the photos and results saved to your account at any time.</li>
        <li>Delete any saved photo; it is removed from our storage.</li>
        <li>Ask us for a copy of your data, or to delete your account and everything saved with it.</li>
        <li>Use the scoring without an account, in which case nothing is saved.</li>
      </ul>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about privacy or requests about your data: write to us at <ContactAddress />.
      </p>
    ),
  },
];

export default function PrivacyRoute() {
  return (
    <LegalPage
      title="Privacy Policy"
      date={PRIVACY_DATE}
      intro={
        <p>
          PrettyScore is built to be fun without costing you your privacy. Here is what happens to your photos and
          your data.
        </p>
      }
      sections={sections}
    />
  );
}
