// Social sign-in through the official client: signInWithOAuth, the provider's
// sign-in page (the test OpenID Connect provider from e2e/support), our
// callback, exchangeCodeForSession, then linkIdentity and unlinkIdentity.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { startServer, client, uniqueEmail, PASSWORD } from './support.js';

const RETURN_TO = 'http://localhost:5173/auth';
let server;
let provider;

/** A free port, so the server can be told the provider's address before it starts. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startProvider(port, callback) {
  const script = fileURLToPath(new URL('../../support/oidc-provider.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: String(port), REDIRECT_URIS: callback, CLIENT_ID: 'prettyscore', CLIENT_SECRET: 'auth-js-secret' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the test provider exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  assert.match(line, /^OIDC provider listening on http:\/\/127\.0\.0\.1:\d+$/);
  return { stop: () => child.kill('SIGTERM') };
}

before(async () => {
  const port = await freePort();
  server = await startServer({
    PRETTYSCORE_AUTH__MANUAL_LINKING: 'true',
    PRETTYSCORE_AUTH__PROVIDERS__TEST__KIND: 'oidc',
    PRETTYSCORE_AUTH__PROVIDERS__TEST__CLIENT_ID: 'prettyscore',
    PRETTYSCORE_AUTH__PROVIDERS__TEST__CLIENT_SECRET: 'auth-js-secret',
    PRETTYSCORE_AUTH__PROVIDERS__TEST__ISSUER: `http://127.0.0.1:${port}`,
    PRETTYSCORE_AUTH__PROVIDERS__TEST__LABEL: 'Test ID',
  });
  provider = await startProvider(port, `${server.authUrl}/callback`);
});

after(async () => {
  provider?.stop();
  await server?.stop();
});

/**
 * What the browser does between `url` and the app's page: follows redirects
 * (keeping cookies by path) and fills in the provider's sign-in form.
 * Returns the app URL the callback sent it to.
 */
async function throughTheProvider(url, email, { verified = true } = {}) {
  const cookies = new Map();
  let method = 'GET';
  let body;
  for (let step = 0; step < 12; step += 1) {
    const { pathname } = new URL(url);
    const cookie = [...cookies].filter(([, c]) => pathname.startsWith(c.path)).map(([n, c]) => `${n}=${c.value}`).join('; ');
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair, ...attributes] = set.split(';').map((p) => p.trim());
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      cookies.set(pair.slice(0, pair.indexOf('=')), { value: pair.slice(pair.indexOf('=') + 1), path });
    }
    [method, body] = ['GET', undefined];
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location'), url).href;
      if (!url.startsWith('http://127.0.0.1')) return url;
      continue;
    }
    const page = await response.text();
    assert.equal(response.status, 200, page);
    assert.match(page, /Test ID — sign in/);
    const form = new URLSearchParams({ email, name: 'Auth Js' });
    if (verified) form.set('email_verified', 'true');
    [method, body] = ['POST', form.toString()];
  }
  throw new Error('too many steps');
}

function pkceClient() {
  return client(server, { flowType: 'pkce' });
}

describe('sign-in through an OpenID Connect provider', () => {
  test('settings list the provider', async () => {
    const response = await fetch(`${server.authUrl}/settings`, { headers: { apikey: 'anon' } });
    const settings = await response.json();
    assert.equal(settings.external.test, true);
    assert.equal(settings.external_labels.test, 'Test ID');
  });

  test('signInWithOAuth, the provider, then exchangeCodeForSession', async () => {
    const auth = pkceClient();
    const email = uniqueEmail('oauth');
    const { data, error } = await auth.signInWithOAuth({
      provider: 'test',
      options: { redirectTo: RETURN_TO, skipBrowserRedirect: true },
    });
    assert.equal(error, null);
    assert.match(data.url, /\/auth\/v1\/authorize\?provider=test&/);
    assert.match(data.url, /code_challenge=/);
    const returned = new URL(await throughTheProvider(data.url, email));
    assert.equal(`${returned.origin}${returned.pathname}`, RETURN_TO);
    const code = returned.searchParams.get('code');
    assert.ok(code, returned.href);
    const exchanged = await auth.exchangeCodeForSession(code);
    assert.equal(exchanged.error, null);
    assert.equal(exchanged.data.user.email, email);
    assert.equal(exchanged.data.user.app_metadata.provider, 'test');
    assert.deepEqual(exchanged.data.user.identities.map((i) => i.provider), ['test']);
    // The code is good once.
    const again = await pkceClient().exchangeCodeForSession(code);
    assert.ok(again.error);
  });

  test('an unverified address never takes over an account', async () => {
    const owner = client(server);
    const email = uniqueEmail('owner');
    assert.equal((await owner.signUp({ email, password: PASSWORD })).error, null);
    const auth = pkceClient();
    const { data } = await auth.signInWithOAuth({ provider: 'test', options: { redirectTo: RETURN_TO, skipBrowserRedirect: true } });
    const returned = new URL(await throughTheProvider(data.url, email, { verified: false }));
    assert.equal(returned.searchParams.get('error_code'), 'email_exists');
    assert.equal(returned.searchParams.get('code'), null);
    assert.match(returned.searchParams.get('error_description'), /Test ID has not verified the address/);
  });

  test('linkIdentity adds the provider and unlinkIdentity removes it', async () => {
    const auth = pkceClient();
    const email = uniqueEmail('linker');
    await auth.signUp({ email, password: PASSWORD });
    const { data, error } = await auth.linkIdentity({
      provider: 'test',
      options: { redirectTo: RETURN_TO, skipBrowserRedirect: true },
    });
    assert.equal(error, null);
    const returned = new URL(await throughTheProvider(data.url, `other-${email}`));
    const exchanged = await auth.exchangeCodeForSession(returned.searchParams.get('code'));
    assert.equal(exchanged.error, null);
    assert.equal(exchanged.data.user.email, email, 'the account keeps its address');
    const { data: identities } = await auth.getUserIdentities();
    assert.deepEqual(identities.identities.map((i) => i.provider).sort(), ['email', 'test']);

    const linked = identities.identities.find((i) => i.provider === 'test');
    assert.equal((await auth.unlinkIdentity(linked)).error, null);
    const { data: after } = await auth.getUserIdentities();
    assert.deepEqual(after.identities.map((i) => i.provider), ['email']);
    const last = await auth.unlinkIdentity(after.identities[0]);
    assert.equal(last.error.code, 'single_identity_not_deletable');
  });

  test('an unknown provider is refused before the browser leaves', async () => {
    const response = await fetch(`${server.authUrl}/authorize?provider=myspace`, { redirect: 'manual' });
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.equal(body.error_code, 'validation_failed');
  });
});
