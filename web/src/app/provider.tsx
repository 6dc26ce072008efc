import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from '@/components/ui/toaster';
import type { SessionClient } from '@/lib/auth-client';
import { createQueryClient } from '@/lib/query-client';
import { SessionProvider } from '@/lib/session';

type AppProviderProps = {
  children: ReactNode;
  /** Tests pass their own; the app makes one per mount. */
  queryClient?: QueryClient;
  /** Tests pass a double; the app uses the real auth client. */
  authClient?: SessionClient;
};

export function AppProvider({ children, queryClient: given, authClient }: AppProviderProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider client={authClient}>
        {children}
        <Toaster />
      </SessionProvider>
    </QueryClientProvider>
  );
}
