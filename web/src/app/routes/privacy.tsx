import { MailIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title';
import { Skeleton } from '@/components/ui/skeleton';
import { useAppConfig } from '@/resources/app-config/get-app-config';

function formatToday(): string {
  return new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

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

type Section = { id: string; title: string; body: ReactNode };

const sections: Section[] = [
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
          create an account, your email address and sign-in details, and the photos and results you choose to save.
        </p>
        <p>
          We may collect anonymous usage statistics, such as which pages are visited, to keep the service running
          well and to improve it. These statistics are not linked to your photos.
        </p>
      </>
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
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <PageTitle title="Privacy Policy" />
      <header>
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Privacy Policy</h1>
        <p className="mt-3 text-sm text-muted-foreground">
          Last updated: <time dateTime={new Date().toISOString().slice(0, 10)}>{formatToday()}</time>
        </p>
        <p className="mt-6 text-lg text-pretty text-muted-foreground">
          PrettyScore is built to be fun without costing you your privacy. Here is what happens to your photos and
          your data.
        </p>
      </header>

      <nav aria-label="Sections of this policy" className="mt-8 rounded-2xl border bg-card p-5 shadow-sm">
        <ol className="grid list-decimal gap-x-6 gap-y-1.5 pl-5 text-sm font-medium sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-brand-700 underline-offset-4 hover:underline">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="mt-10 space-y-10">
        {sections.map((section, index) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-24">
            <h2 id={`${section.id}-heading`} className="flex items-baseline gap-3 text-2xl font-bold">
              <span aria-hidden="true" className="brand-gradient-text text-lg font-black">
                {String(index + 1).padStart(2, '0')}
              </span>
              {section.title}
            </h2>
            <div className="mt-3 space-y-3 leading-relaxed text-foreground/85">{section.body}</div>
          </section>
        ))}
      </div>
    </article>
  );
}
