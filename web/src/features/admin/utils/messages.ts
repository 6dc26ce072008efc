/** What a non-admin is told on the admin pages (docs/spec-rules.md §6)… */
export const ADMIN_ONLY_MESSAGE = 'Access denied: Admin only';
/** …and on /admin/verification. */
export const ADMIN_ACCESS_REQUIRED_MESSAGE = 'Admin access required';
/** When the server gave no answer at all: nothing is shown, and the visitor is told why. */
export const ADMIN_CHECK_FAILED_MESSAGE = 'We could not check your access. Please try again.';
