import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { FormField } from '@/components/ui/form-field';
import { todayIso } from '@/lib/age';

const legalLink = 'font-semibold text-brand-700 underline underline-offset-4 hover:text-accent-700';

type AgeAndTermsFieldsProps = {
  /** Keeps the ids of two forms on one page apart. */
  idPrefix: string;
  dateOfBirth: UseFormRegisterReturn<'dateOfBirth'>;
  acceptTerms: UseFormRegisterReturn<'acceptTerms'>;
  dateOfBirthError?: string;
  acceptTermsError?: string;
};

/**
 * What every sign-up asks before an account exists (issue 41): the date of
 * birth (never shown to anyone) and the acceptance of the terms and
 * guidelines. The email sign-up and the social sign-up step both use it.
 */
export function AgeAndTermsFields({ idPrefix, dateOfBirth, acceptTerms, dateOfBirthError, acceptTermsError }: AgeAndTermsFieldsProps) {
  return (
    <>
      <div className="grid gap-1">
        <FormField
          id={`${idPrefix}-date-of-birth`}
          label="Date of birth"
          type="date"
          autoComplete="bday"
          required
          max={todayIso()}
          aria-describedby={dateOfBirthError ? `${idPrefix}-date-of-birth-error` : `${idPrefix}-date-of-birth-hint`}
          error={dateOfBirthError}
          {...dateOfBirth}
        />
        {dateOfBirthError ? null : (
          <p id={`${idPrefix}-date-of-birth-hint`} className="text-xs text-muted-foreground">
            PrettyScore's community is for adults (18+). Never shown to anyone.
          </p>
        )}
      </div>
      <div className="grid gap-1">
        <div className="flex items-start gap-2.5">
          <input
            id={`${idPrefix}-accept-terms`}
            type="checkbox"
            className="mt-1 size-4 shrink-0 accent-brand-600"
            aria-invalid={acceptTermsError ? true : undefined}
            aria-describedby={acceptTermsError ? `${idPrefix}-accept-terms-error` : undefined}
            {...acceptTerms}
          />
          <label htmlFor={`${idPrefix}-accept-terms`} className="text-sm leading-snug">
            I accept the{' '}
            <Link to="/terms" target="_blank" className={legalLink}>
              Terms of Service
            </Link>{' '}
            and the{' '}
            <Link to="/guidelines" target="_blank" className={legalLink}>
              Community Guidelines
            </Link>
            , and I have read the{' '}
            <Link to="/privacy" target="_blank" className={legalLink}>
              Privacy Policy
            </Link>
            .
          </label>
        </div>
        {acceptTermsError ? (
          <p id={`${idPrefix}-accept-terms-error`} role="alert" className="text-sm font-medium text-destructive">
            {acceptTermsError}
          </p>
        ) : null}
      </div>
    </>
  );
}
