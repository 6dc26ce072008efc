import { CheckCircle2Icon, LoaderCircleIcon } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { InlineAlert } from '@/components/ui/inline-alert';
import { paths } from '@/config/paths';
import { safeReturnTo } from '@/features/auth/utils/return-to';
import { dateOfBirthField, isAdult, todayIso, UNDERAGE_MESSAGE } from '@/lib/age';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useAcceptTerms, useDeclareDateOfBirth, useStanding, type Standing } from '@/resources/account/community';

const legalLink = 'font-semibold text-brand-700 underline underline-offset-4 hover:text-accent-700';

/**
 * Before the community (a public listing, the contest, contact requests,
 * chats, the partner programme and payouts): the date of birth, the terms in
 * force and a confirmed address, one question at a time (issue 41). The
 * server's 403 `age_required`, `terms_required` or `confirmation_required`
 * brings the user here with `?returnTo=`; once all three are done, back.
 */
export default function AccountCommunityRoute() {
  const standing = useStanding();
  const location = useLocation();
  const navigate = useNavigate();
  const returnTo = safeReturnTo(new URLSearchParams(location.search).get('returnTo'));
  const member = standing.data?.member === true;

  useEffect(() => {
    if (member && returnTo) void navigate(returnTo, { replace: true });
  }, [member, returnTo, navigate]);

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:px-6">
      <PageTitle title={paths.community.title} />
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{paths.community.title}</h1>
      <p className="mt-3 text-muted-foreground">
        The leaderboard, the ranking contest, contact requests, chats, the partner programme and payouts are for
        adults who accepted our rules and confirmed their address. Scoring, edits and the personality test stay open
        to you either way.
      </p>
      <div className="mt-8">
        {standing.isPending ? (
          <PageLoader />
        ) : standing.isError ? (
          <InlineAlert>We could not load your account just now. Please reload the page.</InlineAlert>
        ) : (
          <Steps standing={standing.data} returnTo={returnTo} />
        )}
      </div>
    </div>
  );
}

function Steps({ standing, returnTo }: { standing: Standing; returnTo: string | null }) {
  if (!standing.date_of_birth_on_file) return <DateOfBirthStep />;
  if (!standing.adult) return <InlineAlert>{UNDERAGE_MESSAGE.split('.')[0]}.</InlineAlert>;
  if (!standing.terms_accepted) return <TermsStep version={standing.terms_version} />;
  if (!standing.confirmed) return <ConfirmStep />;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CheckCircle2Icon className="size-6 text-emerald-600" aria-hidden="true" />
          You're all set
        </CardTitle>
        <CardDescription>Your date of birth is on file, you accepted the terms and your address is confirmed.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild size="lg">
          <Link to={returnTo ?? paths.leaderboard.path}>{returnTo ? 'Continue' : 'Go to the leaderboard'}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function DateOfBirthStep() {
  const declare = useDeclareDateOfBirth();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const checked = dateOfBirthField.safeParse(value);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Please enter your date of birth');
      return;
    }
    // A minor is refused here, kindly, and nothing is sent.
    if (!isAdult(checked.data)) {
      setRefused(true);
      return;
    }
    declare.mutate(checked.data, {
      onError: (failure) => {
        if (failure instanceof ApiError && failure.code === 'underage') setRefused(true);
        else setError(failure.message);
      },
    });
  };

  if (refused) return <InlineAlert>{UNDERAGE_MESSAGE}</InlineAlert>;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your date of birth</CardTitle>
        <CardDescription>
          You give it once. It is never shown to anyone; only our support can correct it if it is wrong.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-4" onSubmit={submit}>
          <FormField
            id="community-date-of-birth"
            label="Date of birth"
            type="date"
            autoComplete="bday"
            required
            max={todayIso()}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            error={error ?? undefined}
          />
          <Button type="submit" size="lg" disabled={declare.isPending}>
            {declare.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            Continue
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function TermsStep({ version }: { version: string }) {
  const accept = useAcceptTerms();
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!checked) {
      setError('Please accept the terms of service and community guidelines');
      return;
    }
    setError(null);
    accept.mutate(version, { onError: (failure) => setError(failure.message) });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Our terms and community guidelines</CardTitle>
        <CardDescription>
          Version {version}. Please read the{' '}
          <Link to={paths.terms.path} className={legalLink}>
            Terms of Service
          </Link>{' '}
          and the{' '}
          <Link to={paths.guidelines.path} className={legalLink}>
            Community Guidelines
          </Link>
          : they say what may be posted and said, how fees work and how reports are handled.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-4" onSubmit={submit}>
          <div className="flex items-start gap-2.5">
            <input
              id="community-accept-terms"
              type="checkbox"
              className="mt-1 size-4 shrink-0 accent-brand-600"
              checked={checked}
              onChange={(event) => setChecked(event.target.checked)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'community-accept-terms-error' : undefined}
            />
            <label htmlFor="community-accept-terms" className="text-sm leading-snug">
              I accept the Terms of Service and the Community Guidelines (version {version}).
            </label>
          </div>
          {error ? (
            <p id="community-accept-terms-error" role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <Button type="submit" size="lg" disabled={accept.isPending}>
            {accept.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            Accept and continue
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function ConfirmStep() {
  const { session, client } = useSession();
  const email = session?.user.email ?? '';
  const [sending, setSending] = useState(false);

  const resend = async () => {
    if (!email) return;
    setSending(true);
    try {
      const { error } = await client.resend({
        type: 'signup',
        email,
        options: { emailRedirectTo: `${window.location.origin}${window.location.pathname}${window.location.search}` },
      });
      if (error) toast.error(error.message);
      else toast.success(`We sent a new confirmation link to ${email}.`);
    } finally {
      setSending(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Confirm your address</CardTitle>
        <CardDescription>
          {email ? (
            <>
              We sent a confirmation link to <strong>{email}</strong>. Open it, then come back to this page.
            </>
          ) : (
            'Confirm the phone number or email address of your account, then come back to this page.'
          )}
        </CardDescription>
      </CardHeader>
      {email ? (
        <CardContent>
          <Button type="button" variant="outline" size="lg" disabled={sending} onClick={() => void resend()}>
            {sending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            Resend the link
          </Button>
        </CardContent>
      ) : null}
    </Card>
  );
}
