// The official @supabase/auth-js client against the real prettyscore server.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, client, adminApi, codeIn, linkIn, totp, uniqueEmail, PASSWORD } from './support.js';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

async function signedUp() {
  const auth = client(server);
  const email = uniqueEmail();
  const { data, error } = await auth.signUp({ email, password: PASSWORD });
  assert.equal(error, null);
  return { auth, email, session: data.session, user: data.user };
}

describe('sign-up, sign-in and the session', () => {
  test('signUp with autoconfirm returns a session and a user', async () => {
    const { session, user, email, auth } = await signedUp();
    assert.ok(session.access_token);
    assert.ok(session.refresh_token);
    assert.equal(session.token_type, 'bearer');
    assert.equal(user.email, email);
    assert.equal(user.identities.length, 1);
    const { data } = await auth.getSession();
    assert.equal(data.session.access_token, session.access_token);
  });

  test('signUp twice reports user_already_exists', async () => {
    const { email } = await signedUp();
    const { error } = await client(server).signUp({ email, password: PASSWORD });
    assert.equal(error.code, 'user_already_exists');
    assert.match(error.message, /^User already registered/);
    assert.equal(error.status, 422);
  });

  test('a weak password reports weak_password with its reasons', async () => {
    const { error } = await client(server).signUp({ email: uniqueEmail(), password: '123' });
    assert.equal(error.code, 'weak_password');
    assert.deepEqual(error.reasons, ['length']);
    assert.match(error.message, /Password should be at least 6 characters/);
  });

  test('signInWithPassword signs in, and a wrong password is invalid_credentials', async () => {
    const { email } = await signedUp();
    const auth = client(server);
    const wrong = await auth.signInWithPassword({ email, password: 'not-the-password' });
    assert.equal(wrong.error.code, 'invalid_credentials');
    assert.equal(wrong.error.message, 'Invalid login credentials');
    const { data, error } = await auth.signInWithPassword({ email, password: PASSWORD });
    assert.equal(error, null);
    assert.equal(data.user.email, email);
    assert.equal((await auth.getSession()).data.session.user.email, email);
  });

  test('getUser returns the user from the server', async () => {
    const { auth, email } = await signedUp();
    const { data, error } = await auth.getUser();
    assert.equal(error, null);
    assert.equal(data.user.email, email);
    assert.equal(data.user.aud, 'authenticated');
  });

  test('refreshSession rotates the refresh token and emits TOKEN_REFRESHED', async () => {
    const { auth, session } = await signedUp();
    const events = [];
    auth.onAuthStateChange((event) => events.push(event));
    const { data, error } = await auth.refreshSession();
    assert.equal(error, null);
    assert.notEqual(data.session.refresh_token, session.refresh_token);
    assert.ok(events.includes('TOKEN_REFRESHED'), events.join());
    assert.equal((await auth.getUser()).data.user.id, session.user.id);
  });

  test('updateUser changes the metadata and the password', async () => {
    const { auth, email } = await signedUp();
    const { data, error } = await auth.updateUser({ data: { display_name: 'Ada' } });
    assert.equal(error, null);
    assert.equal(data.user.user_metadata.display_name, 'Ada');
    const changed = await auth.updateUser({ password: 'a-brand-new-password' });
    assert.equal(changed.error, null);
    const same = await auth.updateUser({ password: 'a-brand-new-password' });
    assert.equal(same.error.code, 'same_password');
    const again = await client(server).signInWithPassword({ email, password: 'a-brand-new-password' });
    assert.equal(again.error, null);
  });

  test('getClaims verifies the ES256 access token against the JWKS', async () => {
    const { auth, session } = await signedUp();
    const { data, error } = await auth.getClaims();
    assert.equal(error, null);
    assert.equal(data.header.alg, 'ES256');
    assert.ok(data.header.kid);
    assert.equal(data.claims.sub, session.user.id);
    assert.equal(data.claims.aal, 'aal1');
    // A forged signature fails locally: the JWKS check, not a round trip to GET /user.
    const [header, payload] = session.access_token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    const bad = await auth.getClaims(forged);
    assert.ok(bad.error);
    assert.match(bad.error.message, /Invalid JWT signature/);
  });
});

describe('automatic refresh', () => {
  let shortLived;
  before(async () => {
    // Access tokens that expire within auth-js's 90 s margin get refreshed at once.
    shortLived = await startServer({ PRETTYSCORE_AUTH__JWT_EXPIRY_SECS: '60' });
  });
  after(async () => {
    await shortLived?.stop();
  });

  test('the auto-refresh tick refreshes a session close to expiry', async () => {
    const auth = client(shortLived, { autoRefreshToken: false });
    const { data } = await auth.signUp({ email: uniqueEmail('auto'), password: PASSWORD });
    const first = data.session.refresh_token;
    const refreshed = new Promise((resolve) => {
      auth.onAuthStateChange((event, session) => {
        if (event === 'TOKEN_REFRESHED') resolve(session);
      });
    });
    await auth.startAutoRefresh();
    const session = await refreshed;
    await auth.stopAutoRefresh();
    assert.notEqual(session.refresh_token, first);
    assert.equal((await auth.getUser()).error, null);
  });

  test('getSession refreshes an expiring session by itself', async () => {
    const auth = client(shortLived);
    const { data } = await auth.signUp({ email: uniqueEmail('auto'), password: PASSWORD });
    const { data: again } = await auth.getSession();
    assert.notEqual(again.session.refresh_token, data.session.refresh_token);
  });
});

describe('sign-out scopes', () => {
  async function threeTabs() {
    const { email, auth: first } = await signedUp();
    const second = client(server);
    const third = client(server);
    await second.signInWithPassword({ email, password: PASSWORD });
    await third.signInWithPassword({ email, password: PASSWORD });
    return [first, second, third];
  }

  test('local signs out only this session', async () => {
    const [first, second] = await threeTabs();
    assert.equal((await first.signOut({ scope: 'local' })).error, null);
    assert.equal((await first.getSession()).data.session, null);
    assert.equal((await second.getUser()).error, null);
  });

  test('others keeps only this session', async () => {
    const [first, second, third] = await threeTabs();
    assert.equal((await first.signOut({ scope: 'others' })).error, null);
    assert.equal((await first.getUser()).error, null);
    // auth-js turns the server's session_not_found into AuthSessionMissingError
    // and clears the stored session.
    const gone = await second.getUser();
    assert.equal(gone.error.name, 'AuthSessionMissingError');
    assert.equal((await second.getSession()).data.session, null, 'session_not_found clears storage');
    assert.equal((await third.getUser()).error.name, 'AuthSessionMissingError');
  });

  test('global (the default) signs out everywhere', async () => {
    const [first, second, third] = await threeTabs();
    const events = [];
    first.onAuthStateChange((event) => events.push(event));
    assert.equal((await first.signOut()).error, null);
    assert.ok(events.includes('SIGNED_OUT'));
    assert.equal((await second.getUser()).error.name, 'AuthSessionMissingError');
    const refresh = await third.refreshSession();
    assert.equal(refresh.error.code, 'refresh_token_not_found');
  });
});

describe('mail flows through the outbox', () => {
  test('resetPasswordForEmail, verifyOtp with the code, then a new password', async () => {
    const { email } = await signedUp();
    const auth = client(server);
    const sent = await auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:5173/reset' });
    assert.equal(sent.error, null);
    const mail = await server.lastMail(email);
    assert.equal(mail.kind, 'recovery');
    const { data, error } = await auth.verifyOtp({ email, token: codeIn(mail), type: 'recovery' });
    assert.equal(error, null);
    assert.equal(data.user.email, email);
    assert.equal((await auth.updateUser({ password: 'recovered-password' })).error, null);
    const signIn = await client(server).signInWithPassword({ email, password: 'recovered-password' });
    assert.equal(signIn.error, null);
  });

  test('an unknown address gets the same answer and no mail', async () => {
    const { error } = await client(server).resetPasswordForEmail(uniqueEmail('nobody'));
    assert.equal(error, null);
  });

  test('the recovery link redirects to the app with the session', async () => {
    const { email } = await signedUp();
    await client(server).resetPasswordForEmail(email, { redirectTo: 'http://localhost:5173/reset' });
    const link = linkIn(await server.lastMail(email));
    const response = await fetch(link, { redirect: 'manual' });
    assert.equal(response.status, 303);
    const location = response.headers.get('location');
    assert.match(location, /^http:\/\/localhost:5173\/reset#access_token=.+&type=recovery$/);
  });

  test('PKCE: the link carries a code that exchangeCodeForSession redeems', async () => {
    const { email } = await signedUp();
    const auth = client(server, { flowType: 'pkce' });
    await auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:5173/reset' });
    const response = await fetch(linkIn(await server.lastMail(email)), { redirect: 'manual' });
    const code = new URL(response.headers.get('location')).searchParams.get('code');
    assert.ok(code);
    const { data, error } = await auth.exchangeCodeForSession(code);
    assert.equal(error, null);
    assert.equal(data.user.email, email);
  });

  test('signInWithOtp and verifyOtp with the token hash of the link', async () => {
    const { email } = await signedUp();
    const auth = client(server);
    assert.equal((await auth.signInWithOtp({ email })).error, null);
    const link = new URL(linkIn(await server.lastMail(email)));
    const { data, error } = await auth.verifyOtp({ token_hash: link.searchParams.get('token'), type: 'magiclink' });
    assert.equal(error, null);
    assert.equal(data.session.user.email, email);
  });

  test('signInWithOtp without shouldCreateUser answers an unknown address as a known one', async () => {
    // Not GoTrue's otp_disabled: the answer must not tell who has an account.
    const { error } = await client(server).signInWithOtp({ email: uniqueEmail('nobody'), options: { shouldCreateUser: false } });
    assert.equal(error, null);
  });
});

describe('security notices (issue 45)', () => {
  test('a password change mails the owner, whose link signs out everywhere and starts a reset', async () => {
    const { auth, email } = await signedUp();
    const changed = await auth.updateUser({ password: 'changed-by-someone' });
    assert.equal(changed.error, null);

    const notice = await server.lastMail(email);
    assert.equal(notice.kind, 'security_password_changed');
    assert.equal(notice.subject, 'Your PrettyScore password was changed');
    assert.match(notice.body_text, /^The password of your PrettyScore account was changed\./);
    assert.match(notice.body_text, /When: \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
    assert.match(notice.body_text, /From: .+, from 127\.0\.0\.x/);
    const link = linkIn(notice);
    assert.match(link, /^http:\/\/localhost:5173\/account\/secure\?token=/);

    // "This wasn't me": the page posts the link's token.
    const token = new URL(link).searchParams.get('token');
    const secure = await fetch(`${server.url}/api/v1/account/secure`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(secure.status, 200);
    const { error } = await auth.getUser();
    assert.ok(error, 'the session is gone');
    const reset = await server.lastMail(email);
    assert.equal(reset.kind, 'recovery');
    const again = await fetch(`${server.url}/api/v1/account/secure`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(again.status, 400, 'the link works once');
  });
});

describe('MFA with TOTP', () => {
  test('enrol, challenge and verify with a computed code raise the session to aal2', async () => {
    const { auth, email } = await signedUp();
    const enrolled = await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'authenticator' });
    assert.equal(enrolled.error, null);
    assert.match(enrolled.data.totp.qr_code, /^data:image\/svg\+xml;utf-8,<svg/);
    assert.match(enrolled.data.totp.uri, /^otpauth:\/\/totp\//);
    const factorId = enrolled.data.id;

    const challenge = await auth.mfa.challenge({ factorId });
    assert.equal(challenge.error, null);
    const wrong = await auth.mfa.verify({ factorId, challengeId: challenge.data.id, code: '000000' === totp(enrolled.data.totp.secret) ? '111111' : '000000' });
    assert.equal(wrong.error.code, 'mfa_verification_failed');
    assert.match(wrong.error.message, /Invalid TOTP code/);

    const verified = await auth.mfa.challengeAndVerify({ factorId, code: totp(enrolled.data.totp.secret) });
    assert.equal(verified.error, null);
    const aal = await auth.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(aal.data.currentLevel, 'aal2');
    assert.equal(aal.data.nextLevel, 'aal2');
    const factors = await auth.mfa.listFactors();
    assert.equal(factors.data.totp.length, 1);

    // A fresh sign-in is aal1 and must step up.
    const other = client(server);
    await other.signInWithPassword({ email, password: PASSWORD });
    const otherAal = await other.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(otherAal.data.currentLevel, 'aal1');
    assert.equal(otherAal.data.nextLevel, 'aal2');
    const blocked = await other.updateUser({ password: 'should-not-work' });
    assert.equal(blocked.error.code, 'insufficient_aal');
    const stepUp = await other.mfa.challengeAndVerify({ factorId, code: totp(enrolled.data.totp.secret) });
    assert.equal(stepUp.error, null);

    const removed = await auth.mfa.unenroll({ factorId });
    assert.equal(removed.error, null);
  });
});

describe('what the client trips over on GoTrue differences', () => {
  test('a malformed email is validation_failed on signUp, signInWithOtp, resetPasswordForEmail and resend', async () => {
    const auth = client(server);
    const email = 'xx:;x@x.x';
    for (const { error } of [
      await auth.signUp({ email, password: PASSWORD }),
      await auth.signInWithOtp({ email }),
      await auth.resetPasswordForEmail(email),
      await auth.resend({ type: 'signup', email }),
    ]) {
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.message, 'Unable to validate email address: invalid format');
    }
  });

  test('with phone sign-in off, phone flows are phone_provider_disabled (422)', async () => {
    const auth = client(server);
    const phone = '+15551234567';
    const signUp = await auth.signUp({ phone, password: PASSWORD });
    assert.equal(signUp.error.code, 'phone_provider_disabled');
    assert.equal(signUp.error.status, 422);
    assert.equal(signUp.error.message, 'Phone signups are disabled');
    for (const { error } of [
      await auth.signInWithOtp({ phone }),
      await auth.resend({ type: 'sms', phone }),
      await auth.signInWithPassword({ phone, password: PASSWORD }),
    ]) {
      assert.equal(error.code, 'phone_provider_disabled');
      assert.equal(error.status, 422);
    }
  });

  test('verifyOtp checks the phone format before the code', async () => {
    const { error } = await client(server).verifyOtp({ type: 'sms', phone: '12ab', token: '123456' });
    assert.equal(error.code, 'validation_failed');
    assert.equal(error.message, 'Invalid phone number format (E.164 required)');
  });

  test('unlinkIdentity without manual linking is manual_linking_disabled', async () => {
    const { auth } = await signedUp();
    const { data } = await auth.getUserIdentities();
    const { error } = await auth.unlinkIdentity(data.identities[0]);
    assert.equal(error.code, 'manual_linking_disabled');
    assert.equal(error.status, 404);
  });

  test('the admin OAuth client API is feature_disabled', async () => {
    const admin = await adminApi(server);
    const { error } = await admin.oauth.listClients();
    assert.equal(error.code, 'feature_disabled');
    assert.equal(error.message, 'OAuth server is disabled');
  });
});

describe('admin API with a service-role token', () => {
  test('create, list with pagination, read, update, factors and delete', async () => {
    const admin = await adminApi(server);
    const email = uniqueEmail('admin');
    const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Bob' } });
    assert.equal(created.error, null);
    const id = created.data.user.id;

    const page = await admin.listUsers({ page: 1, perPage: 1 });
    assert.equal(page.error, null);
    assert.equal(page.data.users.length, 1);
    assert.ok(page.data.total >= 1);
    assert.ok(page.data.lastPage >= 1);

    const read = await admin.getUserById(id);
    assert.equal(read.data.user.email, email);
    const updated = await admin.updateUserById(id, { user_metadata: { name: 'Robert' } });
    assert.equal(updated.data.user.user_metadata.name, 'Robert');

    const factors = await admin.mfa.listFactors({ userId: id });
    assert.equal(factors.error, null);
    assert.deepEqual(factors.data.factors, []);

    const link = await admin.generateLink({ type: 'magiclink', email });
    assert.equal(link.error, null);
    assert.match(link.data.properties.action_link, /\/auth\/v1\/verify\?token=/);
    assert.equal(link.data.user.email, email);

    const invite = await admin.inviteUserByEmail(uniqueEmail('invited'));
    assert.equal(invite.error, null);
    assert.ok(invite.data.user.invited_at);

    assert.equal((await admin.deleteUser(id)).error, null);
    assert.equal((await admin.getUserById(id)).error.code, 'user_not_found');
  });

  test('listUsers() without arguments (empty page and per_page) lists users', async () => {
    const admin = await adminApi(server);
    await signedUp();
    const { data, error } = await admin.listUsers();
    assert.equal(error, null);
    assert.ok(data.users.length >= 1);
  });

  test('a malformed email is validation_failed for admin calls too', async () => {
    const admin = await adminApi(server);
    for (const { error } of [
      await admin.createUser({ email: 'xx:;x@x.x', password: PASSWORD }),
      await admin.inviteUserByEmail('xx:;x@x.x'),
      await admin.generateLink({ type: 'magiclink', email: 'xx:;x@x.x' }),
    ]) {
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.message, 'Unable to validate email address: invalid format');
      assert.equal(error.status, 400);
    }
  });

  test('a user token is not_admin', async () => {
    const { session } = await signedUp();
    const { GoTrueAdminApi } = await import('@supabase/auth-js');
    const notAdmin = new GoTrueAdminApi({ url: server.authUrl, headers: { Authorization: `Bearer ${session.access_token}` } });
    const { error } = await notAdmin.listUsers();
    assert.equal(error.code, 'not_admin');
  });
});
