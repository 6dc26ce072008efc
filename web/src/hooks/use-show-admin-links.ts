import { useSession } from '@/lib/session';
import { useAdminRole } from '@/resources/admin/admin-role';

/**
 * Whether to show the Admin links of the side menu and the account menu:
 * only when the server says this user is an admin (GET /api/v1/admin/role).
 * The admin pages ask /api/v1/admin/access again on every visit.
 */
export function useShowAdminLinks(): boolean {
  const { session } = useSession();
  const role = useAdminRole();
  return session !== null && role.data === true;
}
