import { zodResolver } from '@hookform/resolvers/zod';
import { HandshakeIcon, LoaderCircleIcon } from 'lucide-react';
import { useEffect, useId, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { paths, signInPathFor } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { normalizePromoCode } from '@/lib/checkout';
import { toast } from '@/lib/toast';
import { z } from '@/lib/zod';
import { useApplyPartner, usePartnerAccountCheck } from '@/resources/partners/partners';
import {
  AUTO_CODE_LENGTH,
  DISPLAY_NAME_MAX,
  DISPLAY_NAME_TOO_LONG_MESSAGE,
  INVALID_PROMO_CODE_MESSAGE,
  INVALID_SHORT_CODE_MESSAGE,
  isValidPromoCode,
  isValidShortCode,
  normalizeShortCode,
  shortCodeToSend,
} from '../utils/codes';
import {
  APPLICATION_FAILED_MESSAGE,
  APPLICATION_SUBMITTED_MESSAGE,
  DISPLAY_NAME_REQUIRED_MESSAGE,
  PARTNER_EXISTS_MESSAGE,
  SIGN_IN_TO_APPLY_MESSAGE,
} from '../utils/messages';

const schema = z.object({
  displayName: z.string().trim().min(1, DISPLAY_NAME_REQUIRED_MESSAGE).max(DISPLAY_NAME_MAX, DISPLAY_NAME_TOO_LONG_MESSAGE),
  shortCode: z.string().refine(isValidShortCode, INVALID_SHORT_CODE_MESSAGE),
  promoCode: z.string().refine(isValidPromoCode, INVALID_PROMO_CODE_MESSAGE),
});
type FormInput = z.input<typeof schema>;
type FormOutput = z.output<typeof schema>;

/**
 * /partners/apply (signed in): display name, custom short code, preferred
 * promo code. Someone who already has a partner account is sent to their
 * portal, with a word why, instead of a form the server would refuse.
 */
export function PartnerApplyPage() {
  const mine = usePartnerAccountCheck();
  if (mine.isPending) return <PageLoader />;
  if (mine.data) return <AlreadyPartner />;
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <header className="flex items-center gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white">
          <HandshakeIcon className="size-6" />
        </span>
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">Partner Application</h1>
          <p className="text-muted-foreground">Earn a commission on every member you bring to PrettyScore.</p>
        </div>
      </header>
      <ApplyForm />
    </div>
  );
}

/** Says so once, then goes to the portal. */
function AlreadyPartner() {
  useEffect(() => {
    toast.info(PARTNER_EXISTS_MESSAGE, { id: 'partner-exists' });
  }, []);
  return <Navigate to={paths.partnersPortal.path} replace />;
}

function ApplyForm() {
  const navigate = useNavigate();
  const apply = useApplyPartner();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { displayName: '', shortCode: '', promoCode: '' },
  });
  const ids = { displayName: useId(), shortCode: useId(), promoCode: useId() };
  const errors = form.formState.errors;
  const shortCode = useWatch({ control: form.control, name: 'shortCode' });
  const host = window.location.host;

  // The code as the server will store it, while the user types: upper case, letters and digits, at most 10.
  const shortCodeField = form.register('shortCode');
  const promoCodeField = form.register('promoCode');
  const onShortCodeChange = (event: ChangeEvent<HTMLInputElement>) => {
    event.target.value = normalizeShortCode(event.target.value);
    return shortCodeField.onChange(event);
  };
  const onPromoCodeChange = (event: ChangeEvent<HTMLInputElement>) => {
    event.target.value = event.target.value.toUpperCase();
    return promoCodeField.onChange(event);
  };

  const onSubmit = form.handleSubmit((values) => {
    if (apply.isPending) return;
    apply.mutate(
      { displayName: values.displayName, shortCode: shortCodeToSend(values.shortCode), promoCode: normalizePromoCode(values.promoCode) },
      {
        onSuccess: () => {
          toast.success(APPLICATION_SUBMITTED_MESSAGE);
          void navigate(paths.partnersPortal.path);
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) {
            toast.error(APPLICATION_FAILED_MESSAGE);
            return;
          }
          if (error.code === 'partner_exists') {
            toast.error(PARTNER_EXISTS_MESSAGE);
            void navigate(paths.partnersPortal.path, { replace: true });
          } else if (error.code === 'invalid_short_code' || error.code === 'short_code_taken') {
            form.setError('shortCode', { message: error.message }, { shouldFocus: true });
          } else if (error.code === 'promo_code_taken' || error.code === 'invalid_promo_code') {
            form.setError('promoCode', { message: error.message }, { shouldFocus: true });
          } else if (error.code === 'validation_failed') {
            form.setError(/promo/i.test(error.message) ? 'promoCode' : 'displayName', { message: error.message }, { shouldFocus: true });
          } else if (error.status === 401) {
            toast.error(SIGN_IN_TO_APPLY_MESSAGE);
            void navigate(signInPathFor(paths.partnersApply.path), { state: { returnTo: paths.partnersApply.path } });
          } else {
            toast.error(error.code !== 'http_error' && error.message ? error.message : APPLICATION_FAILED_MESSAGE);
          }
        },
      },
    );
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your partner details</CardTitle>
        <CardDescription>One partner account per person.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form className="grid gap-5" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Partner application">
          <div className="grid gap-1">
            <FormField
              id={ids.displayName}
              label="Display Name"
              autoComplete="nickname"
              aria-required="true"
              error={errors.displayName?.message}
              {...form.register('displayName')}
            />
            <p className="text-xs text-muted-foreground">Shown on the partner leaderboard.</p>
          </div>
          <div className="grid gap-1">
            <FormField
              id={ids.shortCode}
              label="Custom Short Code (optional)"
              placeholder="e.g. ADA2026"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              error={errors.shortCode?.message}
              {...shortCodeField}
              onChange={onShortCodeChange}
            />
            <p className="text-xs text-muted-foreground" data-testid="referral-link-preview">
              Your link: <span className="font-mono font-semibold break-all text-foreground">{`${host}/r/${shortCode || '…'}`}</span>
              {shortCode ? null : ` (leave blank for a random ${AUTO_CODE_LENGTH}-character code)`}. 3-10 letters or digits.
            </p>
          </div>
          <div className="grid gap-1">
            <FormField
              id={ids.promoCode}
              label="Preferred Promo Code (optional)"
              placeholder="e.g. ADA10"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              error={errors.promoCode?.message}
              {...promoCodeField}
              onChange={onPromoCodeChange}
            />
            <p className="text-xs text-muted-foreground">
              Up to 20 letters, digits, - or _. Your audience enters it at checkout for 10% off their first payment, and the sale is yours.
            </p>
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" disabled={apply.isPending}>
              {apply.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
              Submit Application
            </Button>
            <Button asChild variant="outline">
              <Link to={paths.partners.path}>Cancel</Link>
            </Button>
          </div>
        </form>
        <section aria-labelledby="next-heading" className="rounded-2xl border border-brand-100 bg-brand-50 p-4 text-sm">
          <h2 id="next-heading" className="font-bold">
            What happens next?
          </h2>
          <ol className="mt-2 grid list-decimal gap-1 pl-5">
            <li>We review your application within 24 hours.</li>
            <li>Once approved, you get your unique referral link ({host}/r/YOURCODE).</li>
            <li>Share it and start earning right away.</li>
          </ol>
        </section>
      </CardContent>
    </Card>
  );
}
