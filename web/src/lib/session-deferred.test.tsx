import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The real auth-js module, as the app loads it, replaced by the fake client.
const fake = vi.hoisted(() => ({ constructed: 0 }));
vi.mock('@supabase/auth-js', async () => {
  const { createFakeAuthClient } = await import('@/testing/fake-auth-client');
  const auth = createFakeAuthClient();
  Object.assign(fake, { auth });
  return {
    AuthClient: class {
      constructor() {
        fake.constructed += 1;
        return auth.client;
      }
    },
  };
});

type FakeAuth = ReturnType<typeof import('@/testing/fake-auth-client').createFakeAuthClient>;

async function renderWho() {
  const { SessionProvider, useSession } = await import('./session');
  // As AppLayout does once the page is on screen: idle work may start.
  (await import('./idle')).markPageShown();
  function Who() {
    const { status, session } = useSession();
    return <p>{status === 'loading' ? 'loading' : (session?.user.email ?? 'signed out')}</p>;
  }
  return render(
    <SessionProvider>
      <Who />
    </SessionProvider>,
  );
}

afterEach(() => {
  localStorage.clear();
  fake.constructed = 0;
});

describe('SessionProvider with the app’s own client', () => {
  it('draws a first visit signed out at once, then loads auth-js when idle and follows its events', async () => {
    vi.resetModules();
    await renderWho();
    // No 'loading' placeholder and no auth-js yet: nothing can be stored.
    expect(screen.getByText('signed out')).toBeInTheDocument();

    await waitFor(() => expect(fake.constructed).toBe(1));
    const { auth } = fake as unknown as { auth: FakeAuth };
    await waitFor(() => expect(auth.listenerCount()).toBe(1));
    act(() => auth.signIn());
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
  });

  it('reads a stored session at once, showing the placeholder until then', async () => {
    vi.resetModules();
    localStorage.setItem('supabase.auth.token', '{}');
    await renderWho();
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText(/signed out|ada@example.com/)).toBeInTheDocument();
    expect(fake.constructed).toBe(1);
  });
});
