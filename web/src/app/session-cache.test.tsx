import { QueryClient, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { queryConfig } from '@/lib/query-client';
import { createFakeAuthClient, testSession, testUser } from '@/testing/fake-auth-client';
import { callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

/**
 * The query cache's boundary: query keys carry no user id, so what one user
 * was answered must be gone before the next user's screens read the cache.
 * SessionProvider forgets every answer when the signed-in user changes.
 */

const bob = testSession({ ...testUser, id: '00000000-0000-4000-8000-000000000002', email: 'bob@example.com' });

function queryClient() {
  return new QueryClient({ defaultOptions: { ...queryConfig, queries: { ...queryConfig.queries, retry: false } } });
}

/**
 * A screen that shows a per-user answer under a key without the user, and
 * does not read the session itself (so nothing but the cache boundary makes
 * it ask again). The answer names whoever the auth client says is signed in
 * when it is asked, as the server would from the request's token.
 */
function renderProbe(session: ReturnType<typeof testSession> | null) {
  const auth = createFakeAuthClient({ session });
  const asked = vi.fn(async () => {
    const { data } = await auth.client.getSession();
    return `answer for ${data.session?.user.email ?? 'nobody'}`;
  });
  function Probe() {
    const answer = useQuery({ queryKey: ['probe'], queryFn: asked });
    return <p>{answer.data ?? 'asking'}</p>;
  }
  render(
    <AppProvider queryClient={queryClient()} authClient={auth.client}>
      <Probe />
    </AppProvider>,
  );
  return { auth, asked };
}

describe('the cache boundary', () => {
  it("never shows user A's answer after user B signs in", async () => {
    const { auth } = renderProbe(testSession());
    expect(await screen.findByText('answer for ada@example.com')).toBeInTheDocument();

    act(() => auth.signIn(bob));
    expect(await screen.findByText('answer for bob@example.com')).toBeInTheDocument();
    expect(screen.queryByText('answer for ada@example.com')).toBeNull();
  });

  it("never shows user A's answer after A signs out", async () => {
    const { auth } = renderProbe(testSession());
    expect(await screen.findByText('answer for ada@example.com')).toBeInTheDocument();

    await act(() => auth.client.signOut());
    expect(await screen.findByText('answer for nobody')).toBeInTheDocument();
    expect(screen.queryByText('answer for ada@example.com')).toBeNull();
  });

  it('keeps the answers when the user stays the same: the first read of a stored session, a refreshed token', async () => {
    const { auth, asked } = renderProbe(testSession());
    expect(await screen.findByText('answer for ada@example.com')).toBeInTheDocument();

    act(() => auth.signIn(testSession()));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByText('answer for ada@example.com')).toBeInTheDocument();
    expect(asked).toHaveBeenCalledTimes(1);
  });
});

describe('the cache boundary, on a real page', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await import('@/app/routes/user-dashboard');
  }, 30_000);

  function summary(photosSaved: number) {
    return {
      photosSaved,
      facePhotos: photosSaved,
      bestFaceScore: null,
      averageFaceScore: null,
      freeEdits: quota(3),
      personality: null,
      premium: false,
      verified: false,
      contactEarningsCents: 0,
    };
  }

  it("draws user B's dashboard without ever drawing A's numbers", async () => {
    // The server answers for whoever the request's session is; the fake
    // auth client gives every user the same token, so the test says who.
    let signedIn = 'ada';
    const fetchMock = stubApi({
      'GET /api/v1/dashboard': () => json(summary(signedIn === 'ada' ? 12 : 0)),
      'POST /functions/v1/check-subscription': () =>
        json({ subscribed: false, plan: null, status: null, expires_at: null, cancel_at_period_end: false }),
    });
    const { auth } = renderApp('/user-dashboard', { user: 'signed-in' });
    expect(await screen.findByTestId('stat-photos', undefined, { timeout: 10_000 })).toHaveTextContent('12');

    signedIn = 'bob';
    act(() => auth.signIn(bob));
    // The first drawing with B's session already has no A numbers in it.
    expect(screen.queryByTestId('stat-photos')?.textContent ?? '').not.toContain('12');
    await waitFor(() => expect(screen.getByTestId('stat-photos')).toHaveTextContent('0'));
    expect(screen.getByText('Signed in as bob@example.com')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/dashboard')).toHaveLength(2);
  });
});
