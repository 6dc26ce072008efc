import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /api/v1/account/secure: the "this wasn't me" link of a security
 * mail. Signs out every session of the account and mails a link to set a
 * new password; the link's token works once, for 7 days (400
 * `security_link_invalid` after).
 */
export function secureAccount(token: string): Promise<{ message: string }> {
  return unwrap(api.POST('/api/v1/account/secure', { body: { token } }));
}

export function useSecureAccount() {
  return useMutation({ mutationFn: secureAccount });
}
