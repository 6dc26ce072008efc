import { LandmarkIcon, LoaderCircleIcon, TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, type ButtonProps } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { appPathOf } from '@/lib/checkout';
import { useConnectPayoutAccount } from '@/resources/payouts/payouts';

export const CONNECT_FAILED_MESSAGE = 'We could not start your payout account setup. Please try again.';
export const PROVIDER_FAILED_MESSAGE = 'Our payment provider did not answer. Nothing was changed; please try again in a moment.';

/** Refusals whose message the server words for the user (nothing to be paid yet, already connected). */
const SHOWN_CODES = new Set(['no_earnings', 'already_connected']);

/** What a failed connect says, in the user's words. */
export function connectErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (SHOWN_CODES.has(error.code) && error.message) return error.message;
    if (error.code === 'payment_provider_failed') return PROVIDER_FAILED_MESSAGE;
  }
  return CONNECT_FAILED_MESSAGE;
}

type ConnectPayoutAccountButtonProps = Omit<ButtonProps, 'onClick' | 'children'> & {
  /** 'Connect payout account' for a new account, 'Continue setup' for one whose onboarding is unfinished. */
  label?: string;
};

/**
 * Opens (or continues) the payout account's onboarding: POST
 * /api/v1/payouts/account, then the page the server names. The sandbox's
 * page is a path of this app and is followed inside it; Stripe's hosted
 * onboarding is a page load. A refusal is said under the button.
 */
export function ConnectPayoutAccountButton({ label = 'Connect payout account', disabled, ...props }: ConnectPayoutAccountButtonProps) {
  const connect = useConnectPayoutAccount();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  // Once the server has answered, the browser is on its way: no second tap.
  const [leaving, setLeaving] = useState(false);

  const start = async () => {
    setFailure(null);
    try {
      const { url } = await connect.mutateAsync();
      setLeaving(true);
      const inApp = appPathOf(url);
      if (inApp) void navigate(inApp);
      else window.location.assign(url);
    } catch (error) {
      setFailure(connectErrorMessage(error));
    }
  };

  const busy = connect.isPending || leaving;
  return (
    <div className="grid justify-items-start gap-2">
      <Button {...props} disabled={disabled || busy} onClick={() => void start()}>
        {busy ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <LandmarkIcon aria-hidden="true" />}
        {label}
      </Button>
      {failure ? (
        <p role="alert" className="flex items-start gap-2 text-sm font-medium text-red-800" data-testid="connect-payout-error">
          <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {failure}
        </p>
      ) : null}
    </div>
  );
}
