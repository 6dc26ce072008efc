import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { signInPathFor } from '@/config/paths';
import { toast } from '@/lib/toast';
import { useAdminAccess } from '@/resources/admin/get-admin-access';
import { ADMIN_CHECK_FAILED_MESSAGE, ADMIN_ONLY_MESSAGE } from '../utils/messages';


type RequireAdminProps = {
  children: ReactNode;
  /** The page's own words for a refusal. */
  deniedMessage?: string;
};

/**
 * Shows an admin page only when the server says the signed-in user is an
 * admin; it never decides on its own. Until the server answers, a loader;
 * on 403 the page's message and the way home; on 401 (the session is no
 * longer valid) the sign-in page, which comes back here. Signed-out visitors
 * never reach it: the route puts RequireAuth around it.
 */
export function RequireAdmin({ children, deniedMessage = ADMIN_ONLY_MESSAGE }: RequireAdminProps) {
  const access = useAdminAccess();
  const location = useLocation();

  if (access.data === 'granted') return children;
  if (access.data === 'signed-out') {
    const returnTo = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={signInPathFor(returnTo)} replace state={{ returnTo }} />;
  }
  if (access.data === 'denied') return <LeaveWith message={deniedMessage} />;
  if (access.isError) return <LeaveWith message={ADMIN_CHECK_FAILED_MESSAGE} />;
  return <PageLoader />;
}

/** Says why, then goes home. */
function LeaveWith({ message }: { message: string }) {
  useEffect(() => {
    // One toast however often this mounts (React's development double effects).
    toast.error(message, { id: 'admin-access' });
  }, [message]);
  return <Navigate to="/" replace />;
}
