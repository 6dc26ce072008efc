import { LoaderCircleIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { trackReferral } from '@/resources/partners/partners';
import { REDIRECTING_MESSAGE } from '../utils/messages';

/** Long enough for a slow network; after it the visitor goes home anyway. */
export const TRACK_TIMEOUT_MS = 5_000;

/**
 * /r/{code}: 'Redirecting...', the click recorded (the server sets the
 * affiliate cookie when it counts), then home, whatever the answer. The call
 * goes once per visit, even under React's development double effects.
 */
export function ReferralRedirect({ code }: { code: string }) {
  const navigate = useNavigate();
  const sent = useRef<string | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    if (sent.current !== code) {
      sent.current = code;
      const goHome = () => {
        if (mounted.current) void navigate('/', { replace: true });
      };
      trackReferral(code, AbortSignal.timeout(TRACK_TIMEOUT_MS))
        .catch((error: unknown) => {
          // Only logged (docs/spec-rules.md §8): the visitor is still sent home.
          console.warn('Referral tracking failed', error);
        })
        .finally(goHome);
    }
    return () => {
      mounted.current = false;
    };
  }, [code, navigate]);

  return (
    <div className="mx-auto grid w-full max-w-md justify-items-center gap-4 px-4 py-20 text-center" role="status">
      <LoaderCircleIcon aria-hidden="true" className="size-10 animate-spin text-brand-600" />
      <h1 className="text-2xl font-bold">{REDIRECTING_MESSAGE}</h1>
    </div>
  );
}
