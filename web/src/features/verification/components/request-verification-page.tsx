import { zodResolver } from '@hookform/resolvers/zod';
import { BadgeCheckIcon, ClockIcon, LoaderCircleIcon, ShieldCheckIcon, XCircleIcon } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { z } from '@/lib/zod';
import { formatDate } from '@/resources/billing/billing';
import { useMyVerification, useRequestVerification, type VerificationRequest } from '@/resources/verification/verification';

export const SUBMITTED_MESSAGE = "Verification request submitted! We'll review it soon.";
export const SUBMIT_FAILED_MESSAGE = 'Failed to submit verification request';
export const REJECTED_TEXT = 'Your request was rejected. Please contact support for more information.';

const schema = z.object({
  fullName: z.string().trim().min(1, 'Full name is required').max(100, 'Full name must be less than 100 characters'),
  reason: z.string().trim().min(1, 'Please tell us why you should be verified').max(1000, 'The reason must be less than 1000 characters'),
  instagramHandle: z.string().trim(),
  otherSocial: z.string().trim().max(200, 'Other social media must be less than 200 characters'),
});
type FormInput = z.input<typeof schema>;
type FormOutput = z.output<typeof schema>;

/** /request-verification (signed in): the badge, the request on file, or the form. */
export function RequestVerificationPage() {
  const mine = useMyVerification();

  let body;
  if (mine.isPending) body = <PageLoader />;
  else if (mine.isError)
    body = (
      <p role="alert" className="text-destructive">
        We could not load your verification status. Please try again.
      </p>
    );
  else if (mine.data.verified)
    body = (
      <Card data-testid="verified">
        <CardContent className="grid justify-items-center gap-3 py-10 text-center">
          <BadgeCheckIcon aria-hidden="true" className="size-12 text-sky-600" />
          <h2 className="text-2xl font-extrabold">You&apos;re Verified!</h2>
          <p className="text-muted-foreground">Your profile shows the verification badge.</p>
          <Button asChild>
            <Link to={paths.dashboard.path}>Go to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    );
  else if (mine.data.request) body = <RequestStatus request={mine.data.request} />;
  else body = <RequestForm />;

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <header className="flex items-center gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white">
          <ShieldCheckIcon className="size-6" />
        </span>
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">Request Verification</h1>
          <p className="text-muted-foreground">A badge that shows your profile is really you.</p>
        </div>
      </header>
      {body}
    </div>
  );
}

function RequestStatus({ request }: { request: VerificationRequest }) {
  const rejected = request.status === 'rejected';
  return (
    <Card data-testid="verification-request">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {rejected ? <XCircleIcon aria-hidden="true" className="size-5 text-destructive" /> : <ClockIcon aria-hidden="true" className="size-5 text-primary" />}
          Your request: <span className="capitalize">{request.status}</span>
        </CardTitle>
        <CardDescription>Submitted on {formatDate(request.createdAt)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {rejected ? <p className="font-semibold">{REJECTED_TEXT}</p> : <p>An admin will review it soon.</p>}
        {request.adminNotes ? (
          <p>
            <span className="font-semibold">Admin notes:</span> {request.adminNotes}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function RequestForm() {
  const submit = useRequestVerification();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { fullName: '', reason: '', instagramHandle: '', otherSocial: '' },
  });
  const ids = { fullName: useId(), reason: useId(), instagram: useId(), other: useId() };
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit((values) => {
    if (submit.isPending) return;
    submit.mutate(
      {
        fullName: values.fullName,
        reason: values.reason,
        instagramHandle: values.instagramHandle || undefined,
        otherSocial: values.otherSocial || undefined,
      },
      {
        onSuccess: () => toast.success(SUBMITTED_MESSAGE),
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'validation_failed') {
            const field = /instagram/i.test(error.message) ? 'instagramHandle' : /reason|why/i.test(error.message) ? 'reason' : /social/i.test(error.message) ? 'otherSocial' : 'fullName';
            form.setError(field, { message: error.message }, { shouldFocus: true });
          } else {
            toast.error(error instanceof ApiError && error.status === 409 ? error.message : SUBMIT_FAILED_MESSAGE);
          }
        },
      },
    );
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Request Verification</CardTitle>
        <CardDescription>One request per account. An admin reviews each one.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-5" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Verification request">
          <FormField id={ids.fullName} label="Full Name" autoComplete="name" aria-required="true" error={errors.fullName?.message} {...form.register('fullName')} />
          <div className="grid gap-1.5">
            <Label htmlFor={ids.reason}>Why should you be verified?</Label>
            <Textarea
              id={ids.reason}
              rows={4}
              aria-required="true"
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? `${ids.reason}-error` : undefined}
              {...form.register('reason')}
            />
            {errors.reason ? (
              <p id={`${ids.reason}-error`} role="alert" className="text-sm font-medium text-destructive">
                {errors.reason.message}
              </p>
            ) : null}
          </div>
          <FormField id={ids.instagram} label="Instagram Handle" placeholder="@yourusername" error={errors.instagramHandle?.message} {...form.register('instagramHandle')} />
          <FormField id={ids.other} label="Other Social Media" placeholder="A link or a handle" error={errors.otherSocial?.message} {...form.register('otherSocial')} />
          <div>
            <Button type="submit" disabled={submit.isPending} className="w-full sm:w-auto">
              {submit.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <ShieldCheckIcon aria-hidden="true" />}
              Submit Verification Request
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
