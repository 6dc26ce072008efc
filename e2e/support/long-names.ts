import fs from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import { grantAdmin } from './admin';
import { ASTRONAUT, signUp, type TestAccount } from './score';

/** One unbroken word of `length` letters: the longest a name can be, with nowhere to wrap. */
export function longWord(length: number): string {
  return 'Wolfeschlegelsteinhausenbergerdorff'.repeat(Math.ceil(length / 35)).slice(0, length);
}

async function created(response: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(response.ok(), `${response.url()}: ${await response.text()}`).toBe(true);
}

/**
 * An admin, and data with the longest names the forms allow on every admin
 * page: a partner, an opportunity application, a verification request and a
 * pending leaderboard entry, each from a user of its own.
 */
export async function adminWithLongNames(request: APIRequestContext): Promise<TestAccount> {
  const auth = (account: TestAccount) => ({ Authorization: `Bearer ${account.accessToken}` });
  const partner = await signUp(request);
  await created(await request.post('/api/v1/partners', { headers: auth(partner), data: { displayName: longWord(60) } }));
  const applicant = await signUp(request);
  await created(
    await request.post('/api/v1/opportunities/applications', {
      headers: auth(applicant),
      data: {
        fullName: longWord(100),
        instagram: longWord(30).toLowerCase(),
        location: longWord(200),
        bio: longWord(1000),
        interests: ['Fashion Modeling', 'Influencer Collaborations'],
        agreeTerms: true,
      },
    }),
  );
  const verified = await signUp(request);
  await created(
    await request.post('/api/v1/verification/requests', {
      headers: auth(verified),
      data: { fullName: longWord(100), reason: longWord(500), otherSocial: `https://example.com/${longWord(150)}` },
    }),
  );
  const contestant = await signUp(request);
  await created(
    await request.post('/api/v1/photos', {
      headers: auth(contestant),
      multipart: {
        image: { name: 'astronaut.png', mimeType: 'image/png', buffer: fs.readFileSync(ASTRONAUT) },
        public_listing: 'true',
        display_name: longWord(50),
        bio: longWord(200),
      },
    }),
  );
  const admin = await signUp(request);
  await grantAdmin(admin.email);
  return admin;
}
