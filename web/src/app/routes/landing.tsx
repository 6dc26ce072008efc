import {
  ArrowRightIcon,
  CameraIcon,
  CpuIcon,
  EyeOffIcon,
  GiftIcon,
  PartyPopperIcon,
  QuoteIcon,
  RepeatIcon,
  HeartIcon,
  StarIcon,
  type LucideIcon,
  SparklesIcon,
  TrophyIcon,
  UsersIcon,
  ZapIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { UploadDropZone } from '@/features/upload/components/upload-drop-zone';

type ExampleScore = {
  score: number;
  label: string;
  icon: LucideIcon;
  tint: string;
  breakdown: { label: string; value: number }[];
};

/** Made-up results that only show what a result looks like; labelled as such on the page. */
const exampleScores: ExampleScore[] = [
  {
    score: 8.7,
    label: 'Absolutely Stunning',
    icon: HeartIcon,
    tint: 'from-pink-500 to-rose-500',
    breakdown: [
      { label: 'Symmetry', value: 9.1 },
      { label: 'Skin quality', value: 8.4 },
      { label: 'Facial harmony', value: 8.8 },
    ],
  },
  {
    score: 7.4,
    label: 'Very Pretty',
    icon: SparklesIcon,
    tint: 'from-violet-500 to-purple-600',
    breakdown: [
      { label: 'Symmetry', value: 7.8 },
      { label: 'Skin quality', value: 7.1 },
      { label: 'Facial harmony', value: 7.5 },
    ],
  },
  {
    score: 9.2,
    label: 'Exceptional',
    icon: StarIcon,
    tint: 'from-amber-400 to-orange-500',
    breakdown: [
      { label: 'Symmetry', value: 9.5 },
      { label: 'Skin quality', value: 8.9 },
      { label: 'Facial harmony', value: 9.3 },
    ],
  },
];

const steps = [
  { icon: CameraIcon, title: 'Upload a photo', text: 'Pick a clear, front-facing selfie or drop it above.' },
  {
    icon: CpuIcon,
    title: 'AI analysis',
    text: 'We find your face’s landmarks and measure symmetry, proportions and skin texture.',
  },
  { icon: SparklesIcon, title: 'Get your score', text: 'A score from 1 to 10 with a breakdown, in seconds.' },
];

const values = [
  {
    icon: EyeOffIcon,
    title: 'Private by design',
    text: 'Photos are analysed in memory and not kept unless you save them.',
  },
  {
    icon: RepeatIcon,
    title: 'Consistent',
    text: 'The same photo always gets the same score: no dice rolls.',
  },
  { icon: PartyPopperIcon, title: 'Just for fun', text: 'Scores are entertainment, never a judgement of you.' },
  { icon: GiftIcon, title: 'Free to try', text: 'No account needed to get your first score.' },
];

/** Illustrative quotes, labelled as such on the page: they are not from real users. */
const testimonials = [
  { quote: 'We scored our whole friend group on movie night. Hilarious, and nobody took it too seriously!', who: 'A movie night' },
  { quote: 'I liked seeing the breakdown: it actually explained what it measured.', who: 'A curious scorer' },
  { quote: 'Tried my profile picture, then my vacation selfie. The vacation one won.', who: 'A weekend traveller' },
];

function ExampleScoreCard({ example }: { example: ExampleScore }) {
  return (
    <li className="rounded-3xl border bg-card p-5 shadow-sm">
      <div className="flex items-center gap-4">
        <span
          aria-hidden="true"
          className={`grid size-16 shrink-0 place-items-center rounded-2xl bg-linear-to-br ${example.tint} text-white shadow-md`}
        >
          <example.icon className="size-8 fill-white/30" />
        </span>
        <div>
          <p className="text-3xl font-black tracking-tight">
            {example.score.toFixed(1)}
            <span className="text-base font-semibold text-muted-foreground">/10</span>
          </p>
          <p className="font-semibold text-brand-700">{example.label}</p>
        </div>
      </div>
      <dl className="mt-5 space-y-3">
        {example.breakdown.map((item) => (
          <div key={item.label} className="relative flex justify-between pb-3 text-sm">
            <dt className="text-muted-foreground">{item.label}</dt>
            <dd className="font-semibold">
              {item.value.toFixed(1)}/10
              <span aria-hidden="true" className="absolute inset-x-0 bottom-0 h-2 overflow-hidden rounded-full bg-muted">
                <span className="brand-gradient block h-full rounded-full" style={{ width: `${item.value * 10}%` }} />
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

export default function LandingRoute() {
  return (
    <div className="overflow-x-clip">
      <PageTitle />

      {/* Hero with the drop zone */}
      <section className="relative isolate">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_left,var(--color-brand-100),transparent_55%),radial-gradient(ellipse_at_bottom_right,oklch(94%_0.04_300),transparent_60%)]"
        />
        <div className="mx-auto grid w-full max-w-6xl items-center gap-10 px-4 pt-10 pb-14 sm:px-6 md:pt-16 lg:grid-cols-2 lg:gap-14 lg:pb-20">
          <div className="text-center lg:text-left">
            <Badge>
              <UsersIcon className="size-3.5" aria-hidden="true" />
              Trusted by 100,000+ users
            </Badge>
            <h1 className="mt-5 text-4xl leading-[1.08] font-black tracking-tight text-balance sm:text-5xl lg:text-6xl">
              How pretty is your photo? <span className="brand-gradient-text">Get your PrettyScore.</span>
            </h1>
            <p className="mx-auto mt-5 max-w-xl text-lg text-pretty text-muted-foreground lg:mx-0">
              Upload a selfie and our AI measures symmetry, proportions and harmony to give you a score from 1 to 10.
              Free, fast, and just for fun.
            </p>
            <ul className="mt-6 flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm font-medium text-foreground/80 lg:justify-start">
              <li className="flex items-center gap-1.5">
                <ZapIcon className="size-4 text-brand-600" aria-hidden="true" /> Results in seconds
              </li>
              <li className="flex items-center gap-1.5">
                <EyeOffIcon className="size-4 text-brand-600" aria-hidden="true" /> Photos not kept
              </li>
              <li className="flex items-center gap-1.5">
                <GiftIcon className="size-4 text-brand-600" aria-hidden="true" /> Free to try
              </li>
            </ul>
          </div>
          <div className="mx-auto w-full max-w-md lg:max-w-none">
            <UploadDropZone />
            <p className="mt-3 text-center text-xs text-muted-foreground">
              For entertainment only. Your photo stays in this browser tab until you ask for a score.
            </p>
          </div>
        </div>
      </section>

      {/* Win $50K promotion */}
      <section aria-labelledby="promo-heading" className="mx-auto w-full max-w-6xl px-4 sm:px-6">
        <div className="brand-gradient-strong relative overflow-hidden rounded-3xl p-6 text-white shadow-xl shadow-accent-700/20 sm:p-8">
          <div aria-hidden="true" className="absolute -top-10 -right-10 size-48 rounded-full bg-white/10" />
          <div aria-hidden="true" className="absolute -bottom-16 left-1/3 size-40 rounded-full bg-white/10" />
          <div className="relative flex flex-col items-start gap-5 md:flex-row md:items-center md:justify-between">
            <div className="flex items-start gap-4">
              <span aria-hidden="true" className="grid size-12 shrink-0 place-items-center rounded-2xl bg-white/15">
                <TrophyIcon className="size-6" />
              </span>
              <div>
                <h2 id="promo-heading" className="text-2xl font-extrabold sm:text-3xl">
                  Win $50K
                </h2>
                <p className="mt-1 max-w-xl text-white/90">
                  Enter your best photo in the Global Ranking contest for a chance at the $50,000 prize.
                </p>
              </div>
            </div>
            <Button asChild variant="inverse" size="lg">
              <Link to={paths.globalRanking.path}>
                See the contest
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </div>
      </section>

      {/* Example scores */}
      <section aria-labelledby="examples-heading" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
        <div className="text-center">
          <h2 id="examples-heading" className="text-3xl font-extrabold tracking-tight sm:text-4xl">
            Example scores
          </h2>
          <p className="mt-3 text-muted-foreground">
            Examples of what a result looks like. They are not real people or real results.
          </p>
        </div>
        <ul className="mt-10 grid gap-5 md:grid-cols-3">
          {exampleScores.map((example) => (
            <ExampleScoreCard key={example.label} example={example} />
          ))}
        </ul>
      </section>

      {/* How it works */}
      <section aria-labelledby="steps-heading" className="bg-white/70 py-16">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6">
          <h2 id="steps-heading" className="text-center text-3xl font-extrabold tracking-tight sm:text-4xl">
            How it works
          </h2>
          <ol className="mt-10 grid gap-8 md:grid-cols-3">
            {steps.map((step, index) => (
              <li key={step.title} className="text-center">
                <span
                  aria-hidden="true"
                  className="brand-gradient mx-auto grid size-14 place-items-center rounded-2xl text-white shadow-lg shadow-brand-600/25"
                >
                  <step.icon className="size-6" />
                </span>
                <h3 className="mt-4 text-lg font-bold">
                  <span className="text-brand-700">{index + 1}.</span> {step.title}
                </h3>
                <p className="mx-auto mt-2 max-w-xs text-muted-foreground">{step.text}</p>
              </li>
            ))}
          </ol>
          <div className="mt-10 text-center">
            <Button asChild variant="outline">
              <Link to={paths.howItWorks.path}>
                Learn more about the analysis
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </div>
      </section>

      {/* Values */}
      <section aria-labelledby="values-heading" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="values-heading" className="text-center text-3xl font-extrabold tracking-tight sm:text-4xl">
          What we care about
        </h2>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {values.map((value) => (
            <li
              key={value.title}
              className="flex gap-4 rounded-3xl border bg-card p-5 shadow-sm sm:block sm:p-6"
            >
              <span
                aria-hidden="true"
                className="grid size-11 shrink-0 place-items-center rounded-2xl bg-brand-50 text-brand-700"
              >
                <value.icon className="size-5" />
              </span>
              <div>
                <h3 className="font-bold sm:mt-4">{value.title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{value.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      {/* Testimonials */}
      <section aria-labelledby="testimonials-heading" className="bg-linear-to-b from-brand-50/70 to-transparent py-16">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6">
          <div className="text-center">
            <h2 id="testimonials-heading" className="text-3xl font-extrabold tracking-tight sm:text-4xl">
              Made for moments like these
            </h2>
            <p className="mt-3 text-sm text-muted-foreground">Illustrative testimonials, not quotes from real users.</p>
          </div>
          <ul className="mt-10 grid gap-5 md:grid-cols-3">
            {testimonials.map((item) => (
              <li key={item.who}>
                <figure className="h-full rounded-3xl border bg-card p-6 shadow-sm">
                  <QuoteIcon className="size-6 text-brand-600" aria-hidden="true" />
                  <blockquote className="mt-3 text-pretty">{item.quote}</blockquote>
                  <figcaption className="mt-4 text-sm font-semibold text-muted-foreground">{item.who}</figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {/* Call to action */}
      <section aria-labelledby="cta-heading" className="mx-auto w-full max-w-6xl px-4 pt-4 pb-16 sm:px-6">
        <div className="rounded-3xl border bg-card px-6 py-12 text-center shadow-sm sm:px-12">
          <h2 id="cta-heading" className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
            Ready for your <span className="brand-gradient-text">PrettyScore</span>?
          </h2>
          <p className="mx-auto mt-3 max-w-lg text-muted-foreground">
            It takes a few seconds and it’s free. Remember: it’s all for fun.
          </p>
          <Button asChild size="lg" className="mt-8">
            <Link to={paths.upload.path}>
              Get My Score
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </section>
    </div>
  );
}
