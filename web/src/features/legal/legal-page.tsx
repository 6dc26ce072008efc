import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title';
import { formatLegalDate } from '@/lib/legal';

export type LegalSection = {
  /** The anchor (`#id`): stable, other pages and mails link to it. */
  id: string;
  title: string;
  body: ReactNode;
};

type LegalPageProps = {
  title: string;
  /** Shown beside the date; none for a page that is not accepted. */
  version?: string;
  date: string;
  intro: ReactNode;
  sections: LegalSection[];
  /** The label of the numbers before each heading (`1.`, `G1`). */
  numberLabel?: (index: number, section: LegalSection) => string;
};

/** A page of rules people read and accept: its version and date, a table of contents and numbered sections. */
export function LegalPage({ title, version, date, intro, sections, numberLabel }: LegalPageProps) {
  const label = numberLabel ?? ((index: number) => String(index + 1).padStart(2, '0'));
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <PageTitle title={title} />
      <header>
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
        <p className="mt-3 text-sm text-muted-foreground">
          {version ? <>Version {version} · </> : null}
          {version ? 'In force since' : 'Last updated'}: <time dateTime={date}>{formatLegalDate(date)}</time>
        </p>
        <div className="mt-6 space-y-3 text-lg text-pretty text-muted-foreground">{intro}</div>
      </header>

      <nav aria-label={`Sections of the ${title.toLowerCase()}`} className="mt-8 rounded-2xl border bg-card p-5 shadow-sm">
        <ol className="grid list-none gap-x-6 gap-y-1.5 text-sm font-medium sm:grid-cols-2">
          {sections.map((section, index) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-brand-700 underline-offset-4 hover:underline">
                <span className="mr-1.5 text-muted-foreground">{label(index, section)}</span>
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
                {label(index, section)}
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
