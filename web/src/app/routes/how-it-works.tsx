import {
  ArrowRightIcon,
  CameraIcon,
  CpuIcon,
  EyeOffIcon,
  FlipHorizontal2Icon,
  PartyPopperIcon,
  RatioIcon,
  ScaleIcon,
  ShieldCheckIcon,
  SparklesIcon,
  TrashIcon,
  UsersRoundIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

const steps = [
  {
    icon: CameraIcon,
    title: 'Upload a photo',
    text: 'Choose a clear, front-facing photo of one face, or drop it on the page. JPEG, PNG and WebP all work.',
  },
  {
    icon: CpuIcon,
    title: 'AI analysis',
    text: 'Our server finds the face, locates its landmarks (eyes, brows, nose, mouth, jaw) and takes measurements from them and from the skin’s texture.',
  },
  {
    icon: SparklesIcon,
    title: 'Get your score',
    text: 'The measurements become a score from 1.0 to 10.0 with a breakdown. The same photo always gets the same score, and a mirrored copy scores the same too.',
  },
];

const aspects = [
  {
    icon: FlipHorizontal2Icon,
    title: 'Facial symmetry',
    text: 'How closely the landmarks on the left side of the face mirror those on the right.',
  },
  {
    icon: RatioIcon,
    title: 'Golden ratio',
    text: 'How the face’s proportions, such as its length against its width, compare with the golden ratio of about 1.618.',
  },
  {
    icon: UsersRoundIcon,
    title: 'Feature harmony',
    text: 'How the spacing of the eyes, nose and mouth relate to one another and to the face as a whole.',
  },
  {
    icon: ScaleIcon,
    title: 'Overall balance',
    text: 'All the measures, skin texture included, weighed together into one score.',
  },
];

const privacyPoints = [
  {
    icon: EyeOffIcon,
    title: 'Analysed in memory',
    text: 'Your photo is analysed in memory and is not stored, unless you choose to save the result.',
  },
  {
    icon: ShieldCheckIcon,
    title: 'Location data removed',
    text: 'If you save a photo, we keep it with its EXIF and GPS data stripped out.',
  },
  {
    icon: TrashIcon,
    title: 'Yours to delete',
    text: 'Saved photos stay private to your account, and you can delete them at any time.',
  },
];

export default function HowItWorksRoute() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <PageTitle title="How It Works" />

      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">From photo to score</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
          How <span className="brand-gradient-text">PrettyScore</span> works
        </h1>
        <p className="mt-4 text-lg text-pretty text-muted-foreground">
          Three quick steps, a handful of honest measurements, and a score that is all about fun.
        </p>
      </div>

      <section aria-labelledby="steps-heading" className="mt-12">
        <h2 id="steps-heading" className="sr-only">
          The three steps
        </h2>
        <ol className="grid gap-4 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title}>
              <Card className="h-full">
                <CardHeader>
                  <div className="flex items-center gap-3">
                    <span
                      aria-hidden="true"
                      className="brand-gradient grid size-11 place-items-center rounded-2xl text-white shadow-md shadow-brand-600/25"
                    >
                      <step.icon className="size-5" />
                    </span>
                    <span className="text-sm font-semibold text-muted-foreground">Step {index + 1}</span>
                  </div>
                  <CardTitle className="mt-3 text-xl">{step.title}</CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-muted-foreground">{step.text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="aspects-heading" className="mt-16">
        <h2 id="aspects-heading" className="text-center text-2xl font-bold sm:text-3xl">
          What we analyse
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2">
          {aspects.map((aspect) => (
            <li key={aspect.title} className="flex gap-4 rounded-2xl border bg-card p-5 shadow-sm">
              <span
                aria-hidden="true"
                className="grid size-11 shrink-0 place-items-center rounded-2xl bg-brand-50 text-brand-700"
              >
                <aspect.icon className="size-5" />
              </span>
              <div>
                <h3 className="font-semibold">{aspect.title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{aspect.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="privacy-heading"
        className="mt-16 rounded-3xl bg-linear-to-br from-brand-50 to-violet-50 p-6 sm:p-10"
      >
        <h2 id="privacy-heading" className="text-center text-2xl font-bold sm:text-3xl">
          Your privacy
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {privacyPoints.map((point) => (
            <li key={point.title} className="text-center">
              <span
                aria-hidden="true"
                className="mx-auto grid size-12 place-items-center rounded-full bg-white text-accent-700 shadow-sm"
              >
                <point.icon className="size-5" />
              </span>
              <h3 className="mt-3 font-semibold">{point.title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{point.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <div
        role="note"
        className="mt-10 flex gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-5 text-amber-950"
      >
        <PartyPopperIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <p>
          <strong>Just for fun.</strong> PrettyScore is entertainment. A score is a playful reading of a few
          measurements of one photo; lighting, angle and expression all change it. It says nothing about your worth
          or how attractive anyone finds you.
        </p>
      </div>

      <div className="mt-12 text-center">
        <Button asChild size="lg">
          <Link to={paths.upload.path}>
            Try It Now - It&apos;s Free!
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </div>
  );
}
