import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { AgeAndTermsFields } from '@/features/auth/components/age-and-terms-fields';
import { ageAndTermsSchema, type AgeAndTerms } from '@/features/auth/utils/auth-schema';

type SocialSignUpStepProps = {
  /** The provider's name as people know it ("Google"). */
  label: string;
  /** The date of birth, once the form is valid and the terms accepted. */
  onContinue: (dateOfBirth: string) => void;
  onCancel: () => void;
};

/**
 * Signing up with a provider asks what the email sign-up asks, before the
 * browser leaves for the provider and so before any account exists: the
 * date of birth and the terms (issue 41).
 */
export function SocialSignUpStep({ label, onContinue, onCancel }: SocialSignUpStepProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AgeAndTerms>({
    resolver: zodResolver(ageAndTermsSchema) as never,
    defaultValues: { dateOfBirth: '', acceptTerms: false as never },
  });
  return (
    <form
      noValidate
      aria-labelledby="social-sign-up-title"
      className="grid gap-4 rounded-2xl border bg-muted/40 p-4"
      data-testid="social-sign-up-step"
      onSubmit={(event) => void handleSubmit(({ dateOfBirth }) => onContinue(dateOfBirth))(event)}
    >
      <p id="social-sign-up-title" className="text-sm font-semibold">
        Before you continue with {label}
      </p>
      <AgeAndTermsFields
        idPrefix="social-sign-up"
        dateOfBirth={register('dateOfBirth')}
        acceptTerms={register('acceptTerms')}
        dateOfBirthError={errors.dateOfBirth?.message}
        acceptTermsError={errors.acceptTerms?.message}
      />
      <div className="grid gap-2 sm:grid-cols-2">
        <Button type="submit" size="lg">
          Continue with {label}
        </Button>
        <Button type="button" variant="outline" size="lg" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
