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
 * A hyphenated name of `length` characters whose first part is too long for
 * a phone's line: it can break only at its hyphens.
 */
export function longHyphenated(length: number): string {
  const rest = '-Anna-Maria-Smith';
  return `${longWord(length - rest.length)}${rest}`;
}

/** The longest names the forms allow, as the walk shows them. */
export const LONG_NAMES = {
  /** The admin's own partner account (partner names are at most 60 characters). */
  partner: longHyphenated(60),
  /** The full name on the admin's own opportunity application (at most 100). */
  applicant: longWord(100),
};

/**
 * An admin, and data with the longest names the forms allow on every admin
 * page: a partner, an opportunity application, a verification request and a
 * pending leaderboard entry, each from a user of its own. The admin is an
 * approved partner with a long hyphenated name (on /partners/portal and
 * /partners/leaderboard) and has applied for opportunities with the longest
 * name (/claim-opportunities after applying): issue 44.
 */
export async function adminWithLongNames(request: APIRequestContext): Promise<TestAccount> {
  const auth = (account: TestAccount) => ({ Authorization: `Bearer ${account.accessToken}` });
  const application = {
    instagram: longWord(30).toLowerCase(),
    location: longWord(200),
    bio: longWord(1000),
    interests: ['Fashion Modeling', 'Influencer Collaborations'],
    agreeTerms: true,
  };
  const partner = await signUp(request);
  const otherPartner = await request.post('/api/v1/partners', { headers: auth(partner), data: { displayName: longWord(60) } });
  await created(otherPartner);
  const applicant = await signUp(request);
  await created(
    await request.post('/api/v1/opportunities/applications', {
      headers: auth(applicant),
      data: { fullName: longWord(100), ...application },
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
  const ownPartner = await request.post('/api/v1/partners', { headers: auth(admin), data: { displayName: LONG_NAMES.partner } });
  await created(ownPartner);
  await created(
    await request.post('/api/v1/opportunities/applications', {
      headers: auth(admin),
      data: { fullName: LONG_NAMES.applicant, ...application },
    }),
  );
  await grantAdmin(admin.email);
  const { id } = (await ownPartner.json()) as { id: string };
  await created(await request.post(`/api/v1/admin/partners/${id}/status`, { headers: auth(admin), data: { status: 'approved' } }));
  return admin;
}
