import { BarChart3Icon, BookOpenIcon, HandshakeIcon, NetworkIcon, PercentIcon, TrophyIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { PARENT_SHARE, ratePercent, TIERS } from '../utils/rules';

const TIER_TEXT: Record<string, string> = {
  starter: 'Every new partner starts here.',
  pro: 'For partners who bring members month after month.',
  elite: 'Our top partners, chosen by our team.',
};

const BENEFITS = [
  { icon: PercentIcon, title: 'Up to 30% commission', text: 'Start at 15% on every sale you refer and move up to 20% and 30% as you grow.' },
  { icon: BarChart3Icon, title: 'Real-time analytics', text: 'See your clicks, conversions and earnings in your partner portal as they happen.' },
  {
    icon: NetworkIcon,
    title: '2-tier referrals',
    text: `Partners who join through your link are your sub-affiliates: you earn ${ratePercent(PARENT_SHARE)} of every commission they earn on their sales.`,
  },
  { icon: BookOpenIcon, title: 'Exclusive resources and support', text: 'Promo materials, your own promo code and a team that answers partners first.' },
];

/** /partners: the programme, its three tiers and four benefits, and the ways in. */
export function PartnersLanding() {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-12 px-4 py-10 sm:px-6 sm:py-14">
      <section className="text-center">
        <span className="inline-flex items-center gap-1.5 rounded-full border border-brand-100 bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">
          <HandshakeIcon aria-hidden="true" className="size-3.5" />
          Partner Program
        </span>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-balance sm:text-5xl">Partner With Us</h1>
        <p className="mx-auto mt-3 max-w-2xl text-base text-pretty text-muted-foreground sm:text-lg">
          Share PrettyScore with your audience and earn a commission on every member you bring, with your own referral link and promo code.
        </p>
        <Button asChild size="lg" className="mt-6 w-full sm:w-auto">
          <Link to={paths.partnersApply.path}>Apply Now</Link>
        </Button>
        <p className="mt-3 text-sm text-muted-foreground">
          Already a partner?{' '}
          <Link to={paths.partnersPortal.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            Open your Partner Portal
          </Link>
        </p>
      </section>

      <section aria-labelledby="tiers-heading" className="grid gap-4">
        <h2 id="tiers-heading" className="text-2xl font-bold tracking-tight">
          Commission tiers
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {TIERS.map((tier) => (
            <li key={tier.tier}>
              <Card className={tier.tier === 'elite' ? 'h-full border-brand-200 shadow-lg shadow-brand-600/10' : 'h-full'} data-testid="tier-card">
                <CardHeader>
                  <CardTitle>{tier.name}</CardTitle>
                  <p className="text-4xl font-extrabold tracking-tight text-brand-700">{ratePercent(tier.rate)}</p>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-muted-foreground">
                    {ratePercent(tier.rate)} commission on each sale. {TIER_TEXT[tier.tier]}
                  </p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="benefits-heading" className="grid gap-4">
        <h2 id="benefits-heading" className="text-2xl font-bold tracking-tight">
          Why partner with PrettyScore
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {BENEFITS.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="h-full" data-testid="benefit-card">
                <CardHeader className="flex-row items-center gap-3">
                  <span aria-hidden="true" className="brand-gradient grid size-10 shrink-0 place-items-center rounded-xl text-white">
                    <Icon className="size-5" />
                  </span>
                  <CardTitle>{title}</CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-muted-foreground">{text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section className="grid justify-items-center gap-3 rounded-3xl border bg-card p-6 text-center shadow-sm sm:p-10">
        <h2 className="text-2xl font-bold tracking-tight">Ready to earn?</h2>
        <p className="max-w-xl text-muted-foreground">Applications are reviewed within 24 hours.</p>
        <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
          <Button asChild size="lg">
            <Link to={paths.partnersApply.path}>Apply to Partner Program</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={paths.partnersLeaderboard.path}>
              <TrophyIcon aria-hidden="true" />
              View Leaderboard
            </Link>
          </Button>
        </div>
      </section>
    </div>
  );
}
