import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';

/**
 * Signs out everywhere (auth-js's default, global scope), then goes home.
 * auth-js itself ignores a 401, 403 or 404 from the server on sign-out.
 */
export function useSignOut() {
  const { client } = useSession();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const signOut = useCallback(async () => {
    setPending(true);
    try {
      const { error } = await client.signOut();
      if (error) {
        toast.error('Failed to sign out');
        return;
      }
      await navigate('/');
      toast.success('Signed out successfully');
    } catch {
      toast.error('Failed to sign out');
    } finally {
      setPending(false);
    }
  }, [client, navigate]);

  return { signOut, pending };
}
