import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircleIcon, SendIcon } from 'lucide-react';
import { useId } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useSubmitApplication } from '@/resources/opportunities/applications';
import {
  ALREADY_APPLIED_MESSAGE,
  APPLICATION_SENT_MESSAGE,
  applicationSchema,
  EMPTY_APPLICATION,
  FIELD_ORDER,
  fieldOfMessage,
  INTEREST_OPTIONS,
  SIGN_IN_MESSAGE,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
  type Application,
  type ApplicationField,
  type ApplicationInput,
} from '../utils/application-schema';

/** The first field, in the form's order, that has an error (the spec shows one at a time). */
function firstError(errors: FieldErrors<ApplicationInput>): { field: ApplicationField; message: string } | undefined {
  for (const field of FIELD_ORDER) {
    const message = errors[field]?.message;
    if (message) return { field, message };
  }
  return undefined;
}

type OpportunityFormProps = {
  /** The account's address: the team answers there (the server takes it from the account). */
  email?: string;
  /** Called when the server answers that this user has applied before. */
  onAlreadyApplied: () => void;
};

/** The application: the spec's fields, rules and messages; the server checks them again. */
export function OpportunityForm({ email, onAlreadyApplied }: OpportunityFormProps) {
  const submit = useSubmitApplication();
  const form = useForm<ApplicationInput, unknown, Application>({
    resolver: zodResolver(applicationSchema),
    defaultValues: EMPTY_APPLICATION,
  });
  const ids = {
    fullName: useId(),
    email: useId(),
    emailHint: useId(),
    phone: useId(),
    instagram: useId(),
    location: useId(),
    bio: useId(),
    interests: useId(),
    agreeTerms: useId(),
  };
  const shown = firstError(form.formState.errors);
  const errorOf = (field: ApplicationField) => (shown?.field === field ? shown.message : undefined);

  const onSubmit = form.handleSubmit((application) => {
    if (submit.isPending) return;
    submit.mutate(application, {
      onSuccess: () => toast.success(APPLICATION_SENT_MESSAGE),
      onError: (error) => {
        if (!(error instanceof ApiError)) {
          toast.error(UNEXPECTED_ERROR_MESSAGE);
        } else if (error.code === 'already_applied') {
          toast.error(ALREADY_APPLIED_MESSAGE);
          onAlreadyApplied();
        } else if (error.status === 401) {
          toast.error(SIGN_IN_MESSAGE);
        } else if (error.code === 'validation_failed') {
          // The server's rules are the same as the form's: show its word on its field
          // (a reason that is about no field, such as an unconfirmed address, as a toast).
          const field = fieldOfMessage(error.message);
          if (field) form.setError(field, { message: error.message }, { shouldFocus: true });
          else toast.error(error.message);
        } else {
          toast.error(SUBMIT_FAILED_MESSAGE);
        }
      },
    });
  });

  const bioError = errorOf('bio');
  const termsError = errorOf('agreeTerms');
  const interestsError = errorOf('interests');
  return (
    <form className="grid gap-5" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Opportunity application">
      <FormField id={ids.fullName} label="Full name" autoComplete="name" aria-required="true" error={errorOf('fullName')} {...form.register('fullName')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.email}>Email</Label>
          <Input id={ids.email} type="email" value={email ?? ''} readOnly aria-describedby={ids.emailHint} className="bg-muted" />
          <p id={ids.emailHint} className="text-xs text-muted-foreground">
            Your account&apos;s address: the confirmation and our reply go there. To use another, change it on{' '}
            <Link to={paths.account.path} className="font-medium text-brand-700 underline">
              My Account
            </Link>
            .
          </p>
        </div>
        <FormField
          id={ids.phone}
          label="Phone (optional)"
          type="tel"
          autoComplete="tel"
          placeholder="+14155552671"
          error={errorOf('phone')}
          {...form.register('phone')}
        />
        <FormField id={ids.instagram} label="Instagram (optional)" placeholder="@yourhandle" error={errorOf('instagram')} {...form.register('instagram')} />
        <FormField
          id={ids.location}
          label="Location"
          autoComplete="address-level2"
          placeholder="City, Country"
          aria-required="true"
          error={errorOf('location')}
          {...form.register('location')}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.bio}>Bio (optional)</Label>
        <Textarea
          id={ids.bio}
          rows={4}
          placeholder="Tell us about yourself and any experience you have"
          aria-invalid={bioError ? true : undefined}
          aria-describedby={bioError ? `${ids.bio}-error` : undefined}
          {...form.register('bio')}
        />
        {bioError ? (
          <p id={`${ids.bio}-error`} role="alert" className="text-sm font-medium text-destructive">
            {bioError}
          </p>
        ) : null}
      </div>
      <fieldset className="grid gap-2" aria-describedby={interestsError ? `${ids.interests}-error` : undefined}>
        <legend className="mb-2 text-sm font-medium">Interests</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {INTEREST_OPTIONS.map((option) => (
            <label key={option} className="flex min-h-11 items-center gap-3 rounded-xl border px-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5">
              <input type="checkbox" value={option} className="size-4 accent-[var(--primary)]" {...form.register('interests')} />
              {option}
            </label>
          ))}
        </div>
        {interestsError ? (
          <p id={`${ids.interests}-error`} role="alert" className="text-sm font-medium text-destructive">
            {interestsError}
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-1.5">
        <label htmlFor={ids.agreeTerms} className="flex items-start gap-3 text-sm">
          <input
            id={ids.agreeTerms}
            type="checkbox"
            className="mt-0.5 size-4 accent-[var(--primary)]"
            aria-invalid={termsError ? true : undefined}
            aria-describedby={termsError ? `${ids.agreeTerms}-error` : undefined}
            {...form.register('agreeTerms')}
          />
          <span>I agree to the terms and to be contacted by the PrettyScore team about opportunities.</span>
        </label>
        {termsError ? (
          <p id={`${ids.agreeTerms}-error`} role="alert" className="text-sm font-medium text-destructive">
            {termsError}
          </p>
        ) : null}
      </div>
      <div>
        <Button type="submit" size="lg" disabled={submit.isPending} className="w-full sm:w-auto">
          {submit.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <SendIcon aria-hidden="true" />}
          {submit.isPending ? 'Submitting...' : 'Submit Application'}
        </Button>
      </div>
    </form>
  );
}
