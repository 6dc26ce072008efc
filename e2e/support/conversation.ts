import fs from 'node:fs';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { grantAdmin } from './admin';
import { MEMBER_DATA } from './auth';
import { ASTRONAUT, signUp, type TestAccount } from './score';

/** A fresh account with a display name (a requester needs one to be named). */
export async function signUpNamed(request: APIRequestContext, displayName: string): Promise<TestAccount> {
  const email = `chat-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery';
  const response = await request.post('/auth/v1/signup', { data: { email, password, data: { ...MEMBER_DATA, display_name: displayName } } });
  expect(response.ok(), await response.text()).toBe(true);
  const session = (await response.json()) as Record<string, unknown>;
  expect(session.access_token, 'sign-up returns a session').toBeTruthy();
  return { email, password, accessToken: session.access_token as string, session };
}

const bearer = (account: TestAccount) => ({ Authorization: `Bearer ${account.accessToken}` });

async function ok(response: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(response.ok(), `${response.url()}: ${await response.text()}`).toBe(true);
  return response.json().catch(() => null) as Promise<Record<string, unknown> | null>;
}

export type Conversation = { requestId: string; contestant: TestAccount; requester: TestAccount; contestantName: string; requesterName: string };

/**
 * An approved contact request between two fresh people, made through the
 * API the pages use: A lists an entry and an admin approves it, B asks to
 * contact A and pays the hold in the sandbox, A approves.
 */
export async function approvedConversation(request: APIRequestContext): Promise<Conversation> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const contestantName = `Ava ${suffix}`;
  const requesterName = `Sam ${suffix}`;
  const { contestant, photoId } = await listedEntry(request, contestantName);
  const requester = await signUpNamed(request, requesterName);
  const contact = await ok(
    await request.post('/api/v1/contact-requests', {
      headers: bearer(requester),
      data: { photoId, message: `Hello ${contestantName}, shall we work together?` },
    }),
  );
  const requestId = contact!.id as string;
  const user = (requester.session.user ?? {}) as { id?: string };
  const checkout = await ok(
    await request.post('/functions/v1/create-checkout', {
      headers: { ...bearer(requester), 'Idempotency-Key': `e2e-${suffix}` },
      data: { userId: user.id, email: requester.email, type: 'contact_request', metadata: { contact_request_id: requestId } },
    }),
  );
  const sandboxId = new URL(checkout!.url as string, 'http://localhost').pathname.split('/').pop()!;
  await ok(await request.post(`/api/v1/billing/sandbox/${sandboxId}/pay`, { headers: bearer(requester) }));
  await expect
    .poll(async () => {
      const response = await request.post(`/api/v1/contact-requests/${requestId}/approve`, { headers: bearer(contestant) });
      return response.status();
    })
    .toBe(200);
  return { requestId, contestant, requester, contestantName, requesterName };
}


/** How a spec makes a signed-in account with a display name on the server `request` talks to. */
export type MakeAccount = (request: APIRequestContext, displayName: string) => Promise<TestAccount>;

/**
 * A fresh contestant named `contestantName` whose entry an admin has approved
 * onto the leaderboard; on another server than global setup's, with that
 * server's way to make accounts and its data directory (for the admin role).
 */
export async function listedEntry(
  request: APIRequestContext,
  contestantName: string,
  other?: { account: MakeAccount; dataDir: string },
): Promise<{ contestant: TestAccount; photoId: string }> {
  const account = other?.account ?? signUpNamed;
  const contestant = await account(request, contestantName);
  const listed = await ok(
    await request.post('/api/v1/photos', {
      headers: bearer(contestant),
      multipart: {
        image: { name: 'astronaut.png', mimeType: 'image/png', buffer: fs.readFileSync(ASTRONAUT) },
        public_listing: 'true',
        display_name: contestantName,
      },
    }),
  );
  const photoId = listed!.id as string;
  const admin = other ? await other.account(request, 'Boss') : await signUp(request);
  await grantAdmin(admin.email, other?.dataDir);
  await ok(await request.post(`/api/v1/admin/leaderboard/entries/${photoId}/approve`, { headers: bearer(admin) }));
  return { contestant, photoId };
}

/** Sends `count` messages through the API, alternating between the two people. */
export async function fillConversation(request: APIRequestContext, conversation: Conversation, count: number) {
  for (let index = 0; index < count; index += 1) {
    const from = index % 2 === 0 ? conversation.requester : conversation.contestant;
    await ok(
      await request.post(`/api/v1/contact-requests/${conversation.requestId}/messages`, {
        headers: bearer(from),
        data: { id: crypto.randomUUID(), content: `Message ${index + 1}: ${'a little longer line of chat '.repeat(1 + (index % 3))}` },
      }),
    );
  }
}

/** The entry's card on /leaderboard (of `base`, else the suite's server), paging on until it shows (other walks list entries too). */
export async function findEntry(page: Page, name: string, base = ''): Promise<Locator> {
  await page.goto(`${base}/leaderboard`);
  await expect(page.getByRole('heading', { level: 1, name: 'Global Leaderboard' })).toBeVisible();
  const card = page.getByTestId('leaderboard-entry').filter({ hasText: name });
  for (let pageNumber = 1; pageNumber <= 50; pageNumber += 1) {
    await expect(page.getByTestId('leaderboard-entry').first()).toBeVisible();
    if (await card.count()) return card;
    const next = page.getByRole('navigation', { name: 'Leaderboard pages' }).getByRole('button', { name: 'Next' });
    if (await next.isDisabled()) break;
    await next.click();
    await expect(page.getByText(`Page ${pageNumber + 1}`)).toBeVisible();
  }
  throw new Error(`${name} is not on the leaderboard`);
}

