import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient, testSession } from '@/testing/fake-auth-client';
import { SessionProvider, useSession } from './session';

function Who() {
  const { status, session } = useSession();
  return <p>{status === 'loading' ? 'loading' : (session?.user.email ?? 'signed out')}</p>;
}

describe('SessionProvider', () => {
  it('reads the stored session once', async () => {
    const auth = createFakeAuthClient({ session: testSession() });
    render(
      <SessionProvider client={auth.client}>
        <Who />
      </SessionProvider>,
    );
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    expect(auth.mocks.getSession).toHaveBeenCalledTimes(1);
  });

  it('follows sign-in and sign-out events', async () => {
    const auth = createFakeAuthClient();
    render(
      <SessionProvider client={auth.client}>
        <Who />
      </SessionProvider>,
    );
    expect(await screen.findByText('signed out')).toBeInTheDocument();

    act(() => auth.signIn());
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();

    await act(() => auth.client.signOut());
    expect(screen.getByText('signed out')).toBeInTheDocument();
  });

  it('stops listening when unmounted', async () => {
    const auth = createFakeAuthClient();
    const { unmount } = render(
      <SessionProvider client={auth.client}>
        <Who />
      </SessionProvider>,
    );
    await screen.findByText('signed out');
    expect(auth.listenerCount()).toBe(1);
    unmount();
    expect(auth.listenerCount()).toBe(0);
  });
});
