// Passkeys and WebAuthn factors through the official client, as supabase-js's
// own test/passkey.e2e.test.ts drives GoTrue: passkey.startRegistration /
// verifyRegistration, startAuthentication / verifyAuthentication, list,
// update, delete, the admin API's passkey.listPasskeys / deletePasskey, and
// mfa.enroll({ factorType: 'webauthn' }) with challenge and verify. Node has
// no navigator.credentials, so a software authenticator answers.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, client, adminApi, uniqueEmail, PASSWORD } from './support.js';
import { SoftwareAuthenticator } from './software-authenticator.js';

// support.js's site URL is http://localhost:5173: the server's relying party.
const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:5173';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

const passkeyClient = () => client(server, { experimental: { passkey: true } });

/** A signed-up, signed-in user's client. */
async function signedUp(prefix) {
  const owner = passkeyClient();
  const email = uniqueEmail(prefix);
  const { error } = await owner.signUp({ email, password: PASSWORD });
  assert.equal(error, null);
  return { owner, email };
}

async function register(owner, authenticator) {
  const { data: options, error } = await owner.passkey.startRegistration();
  assert.equal(error, null);
  const credential = authenticator.create(options.options);
  return owner.passkey.verifyRegistration({ challengeId: options.challenge_id, credential });
}

async function signIn(visitor, authenticator) {
  const { data: options, error } = await visitor.passkey.startAuthentication();
  assert.equal(error, null);
  const credential = authenticator.get(options.options);
  return visitor.passkey.verifyAuthentication({ challengeId: options.challenge_id, credential });
}

function claims(session) {
  return JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
}

/** auth-js hands mfa.challenge's options over as bytes; the authenticator reads JSON. */
function asJson(publicKey) {
  const b64 = (value) => (typeof value === 'string' ? value : Buffer.from(value instanceof ArrayBuffer ? new Uint8Array(value) : value).toString('base64url'));
  return {
    ...publicKey,
    challenge: b64(publicKey.challenge),
    ...(publicKey.user ? { user: { ...publicKey.user, id: b64(publicKey.user.id) } } : {}),
    allowCredentials: (publicKey.allowCredentials ?? []).map((c) => ({ ...c, id: b64(c.id) })),
  };
}

/** What mfa.verify serialises: a credential with toJSON, as a browser's has. */
const asCredential = (json) => ({ ...json, toJSON: () => json });

describe('passkeys through auth-js', () => {
  test('settings say passkeys are on', async () => {
    const settings = await (await fetch(`${server.authUrl}/settings`)).json();
    assert.equal(settings.passkeys_enabled, true);
  });

  test('register a passkey, list it, and sign in with it from another client', async () => {
    const { owner, email } = await signedUp('passkey');
    const authenticator = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });

    const { data: options } = await owner.passkey.startRegistration();
    assert.match(options.challenge_id, UUID);
    assert.equal(options.options.rp.id, RP_ID);
    assert.equal(options.options.authenticatorSelection.residentKey, 'required');
    assert.ok(options.expires_at > Date.now() / 1000);
    const credential = authenticator.create(options.options);
    const { data: created, error } = await owner.passkey.verifyRegistration({ challengeId: options.challenge_id, credential });
    assert.equal(error, null);
    assert.match(created.id, UUID);
    assert.equal(created.friendly_name, 'Passkey');
    assert.ok(created.created_at);

    const { data: list } = await owner.passkey.list();
    assert.deepEqual(list.map((p) => p.id), [created.id]);
    assert.equal(list[0].last_used_at, undefined);

    const visitor = passkeyClient();
    const { data: signedIn, error: signInError } = await signIn(visitor, authenticator);
    assert.equal(signInError, null);
    assert.equal(signedIn.user.email, email);
    const { data: stored } = await visitor.getSession();
    assert.equal(stored.session.user.email, email, 'the client keeps the session');
    assert.equal(claims(stored.session).amr[0].method, 'passkey');

    const { data: after } = await owner.passkey.list();
    assert.ok(after[0].last_used_at, 'the sign-in is recorded');
  });

  test('rename, delete, and a deleted passkey signs no one in', async () => {
    const { owner } = await signedUp('passkey-manage');
    const authenticator = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const { data: created } = await register(owner, authenticator);

    const { data: renamed, error } = await owner.passkey.update({ passkeyId: created.id, friendlyName: 'Work laptop' });
    assert.equal(error, null);
    assert.equal(renamed.friendly_name, 'Work laptop');

    const { error: deleteError } = await owner.passkey.delete({ passkeyId: created.id });
    assert.equal(deleteError, null);
    const { data: list } = await owner.passkey.list();
    assert.deepEqual(list, []);

    const { error: refused } = await signIn(passkeyClient(), authenticator);
    assert.equal(refused.code, 'webauthn_verification_failed');

    const unknown = '00000000-0000-4000-8000-000000000000';
    const { error: notFound } = await owner.passkey.update({ passkeyId: unknown, friendlyName: 'x' });
    assert.equal(notFound.status, 404);
    const { error: notFoundDelete } = await owner.passkey.delete({ passkeyId: unknown });
    assert.equal(notFoundDelete.status, 404);
  });

  test('bad answers are refused with GoTrue’s codes', async () => {
    const { owner } = await signedUp('passkey-bad');
    const authenticator = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    await register(owner, authenticator);

    // A used challenge.
    const visitor = passkeyClient();
    const { data: options } = await visitor.passkey.startAuthentication();
    const credential = authenticator.get(options.options);
    const first = await visitor.passkey.verifyAuthentication({ challengeId: options.challenge_id, credential });
    assert.equal(first.error, null);
    const replay = await passkeyClient().passkey.verifyAuthentication({ challengeId: options.challenge_id, credential });
    assert.equal(replay.error.code, 'webauthn_challenge_not_found');

    // Another origin; a forged signature.
    authenticator.origin = 'https://evil.example';
    assert.equal((await signIn(passkeyClient(), authenticator)).error.code, 'webauthn_verification_failed');
    authenticator.origin = ORIGIN;
    authenticator.tamper = true;
    assert.equal((await signIn(passkeyClient(), authenticator)).error.code, 'webauthn_verification_failed');
    authenticator.tamper = false;

    // One authenticator key on one account.
    const { data: again } = await owner.passkey.startRegistration();
    const duplicate = authenticator.attest(0, again.options);
    const exists = await owner.passkey.verifyRegistration({ challengeId: again.challenge_id, credential: duplicate });
    assert.equal(exists.error.code, 'webauthn_credential_exists');
    assert.equal(exists.error.status, 422);

    // Registration needs a session.
    const { error: noSession } = await passkeyClient().passkey.startRegistration();
    assert.equal(noSession.name, 'AuthSessionMissingError');
  });

  test('the admin API lists and deletes a user’s passkeys', async () => {
    const { owner } = await signedUp('passkey-admin');
    const authenticator = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const { data: created } = await register(owner, authenticator);
    const { data: user } = await owner.getUser();
    const admin = await adminApi(server);

    const { data: listed, error } = await admin.passkey.listPasskeys({ userId: user.user.id });
    assert.equal(error, null);
    assert.deepEqual(listed.map((p) => p.id), [created.id]);
    const { error: deleteError } = await admin.passkey.deletePasskey({ userId: user.user.id, passkeyId: created.id });
    assert.equal(deleteError, null);
    const { data: none } = await owner.passkey.list();
    assert.deepEqual(none, []);
  });
});

describe('a WebAuthn second factor through auth-js', () => {
  test('enrol with a create challenge, then reach aal2 with a request challenge', async () => {
    const { owner, email } = await signedUp('webauthn-factor');
    const key = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const webauthn = { rpId: RP_ID, rpOrigins: [ORIGIN] };

    const { data: factor, error } = await owner.mfa.enroll({ factorType: 'webauthn', friendlyName: 'YubiKey' });
    assert.equal(error, null);
    assert.equal(factor.type, 'webauthn');
    const { data: create, error: challengeError } = await owner.mfa.challenge({ factorId: factor.id, webauthn });
    assert.equal(challengeError, null);
    assert.equal(create.webauthn.type, 'create');
    const created = key.create(asJson(create.webauthn.credential_options.publicKey));
    const { error: verifyError } = await owner.mfa.verify({
      factorId: factor.id,
      challengeId: create.id,
      webauthn: { ...webauthn, type: 'create', credential_response: asCredential(created) },
    });
    assert.equal(verifyError, null);
    const { data: level } = await owner.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(level.currentLevel, 'aal2');

    // A later password sign-in is aal1 until the key answers.
    const later = client(server);
    await later.signInWithPassword({ email, password: PASSWORD });
    const { data: before } = await later.mfa.getAuthenticatorAssuranceLevel();
    assert.deepEqual([before.currentLevel, before.nextLevel], ['aal1', 'aal2']);
    const { data: request } = await later.mfa.challenge({ factorId: factor.id, webauthn });
    assert.equal(request.webauthn.type, 'request');
    const assertion = key.get(asJson(request.webauthn.credential_options.publicKey));
    const { error: raiseError } = await later.mfa.verify({
      factorId: factor.id,
      challengeId: request.id,
      webauthn: { ...webauthn, type: 'request', credential_response: asCredential(assertion) },
    });
    assert.equal(raiseError, null);
    const { data: raised } = await later.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(raised.currentLevel, 'aal2');
    const { data: session } = await later.getSession();
    assert.equal(claims(session.session).amr[0].method, 'mfa/webauthn');

    // A forged answer is refused.
    key.tamper = true;
    const { data: again } = await later.mfa.challenge({ factorId: factor.id, webauthn });
    const forged = key.get(asJson(again.webauthn.credential_options.publicKey));
    const { error: refused } = await later.mfa.verify({
      factorId: factor.id,
      challengeId: again.id,
      webauthn: { ...webauthn, type: 'request', credential_response: asCredential(forged) },
    });
    assert.equal(refused.code, 'mfa_verification_failed');
  });
});
