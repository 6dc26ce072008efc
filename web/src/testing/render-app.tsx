import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { queryConfig } from '@/lib/query-client';
import { createFakeAuthClient, testSession } from './fake-auth-client';

type RenderAppOptions = {
  /** 'signed-in' starts with a session for testUser; the default is signed out. */
  user?: 'signed-in' | 'signed-out';
  signOutError?: boolean;
};

/** Renders the whole app (layout, providers, routes) at `url`. */
export function renderApp(url = '/', { user = 'signed-out', signOutError = false }: RenderAppOptions = {}) {
  const auth = createFakeAuthClient({
    session: user === 'signed-in' ? testSession() : null,
    signOutError,
  });
  const queryClient = new QueryClient({
    defaultOptions: { ...queryConfig, queries: { ...queryConfig.queries, retry: false } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const result = render(
    <AppProvider queryClient={queryClient} authClient={auth.client}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, auth, queryClient, user: userEvent.setup({ applyAccept: false }) };
}
