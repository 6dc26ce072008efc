import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { authErrorMessage, readAuthRedirectError, withoutAuthRedirectError } from '@/lib/auth-redirect';

/**
 * The message of a failed social sign-in or linking the server sent this
 * page back with (`?error=…&error_description=…`, and the same in the
 * fragment), in the user's words; null when there is none. The parameters
 * leave the address at once (a replaced history entry), so a reload or a
 * bookmark does not show the message again. `dismiss` hides it; `code` is
 * the server's machine code (`age_required`…), when it gave one.
 */
export function useAuthRedirectError(): { message: string | null; code: string | null; dismiss: () => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const [error] = useState(() => readAuthRedirectError(location.search, location.hash));
  const [message, setMessage] = useState(() => (error ? authErrorMessage(error) : null));

  useEffect(() => {
    if (!readAuthRedirectError(location.search, location.hash)) return;
    const { search, hash } = withoutAuthRedirectError(location.search, location.hash);
    // Through the router (history.replaceState underneath), so it knows the address changed.
    void navigate({ pathname: location.pathname, search, hash }, { replace: true, state: location.state });
  }, [location.pathname, location.search, location.hash, location.state, navigate]);

  return { message, code: error?.code ?? null, dismiss: () => setMessage(null) };
}
