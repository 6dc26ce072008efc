#!/usr/bin/env node
/**
 * Checks the test OpenID Connect provider (oidc-provider.mjs) end to end, the
 * way the server will use it: discovery, the keys, then two authorization
 * code flows through its sign-in page with node's fetch and a cookie jar,
 * each ending at the token endpoint (client_secret_basic, then
 * client_secret_post) with an RS256 ID token whose signature, issuer,
 * audience, nonce and claims are checked. Exits non-zero on any failure.
 *
 *   node e2e/support/oidc-provider.check.mjs            # starts its own provider
 *   OIDC_ISSUER=http://127.0.0.1:PORT node …check.mjs   # checks a running one (REDIRECT_URI, CLIENT_ID, CLIENT_SECRET to match)
 *   VERBOSE=1 …                                         # prints each request, status, Location and cookies
 */
import { spawn } from 'node:child_process';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const redirectUri = process.env.REDIRECT_URI || 'http://127.0.0.1:9999/cb';
const clientId = process.env.CLIENT_ID || 'prettyscore';
const clientSecret = process.env.CLIENT_SECRET || 'prettyscore-test-secret';
const verbose = Boolean(process.env.VERBOSE);

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function log(line) {
  if (verbose) console.log(line);
}

/** Starts oidc-provider.mjs on a free port and resolves with its address and the child. */
async function startProvider() {
  const script = fileURLToPath(new URL('./oidc-provider.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: '0', REDIRECT_URIS: redirectUri, CLIENT_ID: clientId, CLIENT_SECRET: clientSecret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const ready = new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^OIDC provider listening on (http:\/\/\S+)$/.exec(line);
      if (match) resolve(match[1]);
      else reject(new Error(`unexpected stdout line: ${line}`));
    });
    child.on('exit', (code) => reject(new Error(`provider exited with ${code} before it was ready:\n${stderr}`)));
  });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`provider not ready in 15 s:\n${stderr}`)), 15_000).unref());
  return { issuer: await Promise.race([ready, timeout]), child, stderr: () => stderr };
}

/** A cookie jar that keeps each cookie's path, as a browser (or reqwest's jar) would. */
class CookieJar {
  #cookies = new Map(); // name → { value, path }

  store(response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()));
      if (expired || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, { value, path });
      log(`    Set-Cookie ${name} (Path=${path})${expired || value === '' ? ' expired' : ''}`);
    }
  }

  headerFor(url) {
    const { pathname } = new URL(url);
    const sent = [...this.#cookies].filter(([, cookie]) => pathname === cookie.path || pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`));
    return sent.map(([name, cookie]) => `${name}=${cookie.value}`).join('; ');
  }
}

async function request(jar, method, url, { body, headers = {} } = {}) {
  const cookie = jar.headerFor(url);
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    body,
    headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
  });
  log(`${method} ${new URL(url).pathname} → ${response.status}${response.headers.get('location') ? ` Location: ${response.headers.get('location')}` : ''}${cookie ? ` (Cookie: ${cookie.split('; ').map((c) => c.split('=')[0]).join(', ')})` : ''}`);
  jar.store(response);
  return response;
}

function decodePart(part) {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** Verifies an RS256 JWT against the provider's JWKS and returns its payload. */
function verifyIdToken(token, jwks) {
  const [headerPart, payloadPart, signaturePart] = token.split('.');
  const header = decodePart(headerPart);
  assert(header.alg === 'RS256', `ID token alg is ${header.alg}, expected RS256`);
  const jwk = jwks.keys.find((key) => key.kid === header.kid);
  assert(jwk, `no key ${header.kid} in /jwks`);
  const valid = verify(
    'RSA-SHA256',
    Buffer.from(`${headerPart}.${payloadPart}`),
    createPublicKey({ key: jwk, format: 'jwk' }),
    Buffer.from(signaturePart, 'base64url'),
  );
  assert(valid, 'ID token signature does not verify with /jwks');
  return decodePart(payloadPart);
}

/** One authorization code flow through the sign-in page; returns the token response and the ID token's claims. */
async function codeFlow(config, jwks, jar, { email, emailVerified, name, auth }) {
  const state = randomBytes(8).toString('hex');
  const nonce = randomBytes(8).toString('hex');
  const authorize = new URL(config.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: redirectUri,
    state,
    nonce,
  }).toString();

  // 1. The authorization request sends the browser to the sign-in page.
  let response = await request(jar, 'GET', authorize.href);
  assert(response.status === 303, `authorize: status ${response.status}, expected 303: ${await response.text()}`);
  const interactionUrl = new URL(response.headers.get('location'), authorize).href;
  assert(/\/interaction\/[^/]+$/.test(new URL(interactionUrl).pathname), `authorize went to ${interactionUrl}`);

  // 2. The sign-in page.
  response = await request(jar, 'GET', interactionUrl);
  const page = await response.text();
  assert(response.status === 200, `interaction page: status ${response.status}: ${page}`);
  assert(page.includes('<title>Test ID — sign in</title>'), 'interaction page title');
  for (const field of ['name="email"', 'name="email_verified"', 'name="name"', '>Continue</button>']) {
    assert(page.includes(field), `interaction page lacks ${field}`);
  }

  // 3. Its form: login and consent at once.
  const form = new URLSearchParams({ email, name });
  if (emailVerified) form.set('email_verified', 'true');
  response = await request(jar, 'POST', interactionUrl, {
    body: form.toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  assert(response.status === 303, `interaction POST: status ${response.status}: ${await response.text()}`);

  // 4. Follow the redirects back to the client's redirect URI.
  let location = new URL(response.headers.get('location'), interactionUrl).href;
  for (let hops = 0; !location.startsWith(redirectUri); hops += 1) {
    assert(hops < 5, 'too many redirects');
    response = await request(jar, 'GET', location);
    assert([302, 303].includes(response.status), `${location}: status ${response.status}: ${await response.text()}`);
    location = new URL(response.headers.get('location'), location).href;
  }
  const callback = new URL(location);
  assert(!callback.searchParams.has('error'), `redirected with error: ${callback.search}`);
  assert(callback.searchParams.get('state') === state, 'state came back');
  assert(callback.searchParams.get('iss') === config.issuer, 'iss in the authorization response');
  const code = callback.searchParams.get('code');
  assert(code, 'a code in the redirect');

  // 5. The token request, as the server (a confidential client) makes it.
  const tokenBody = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (auth === 'client_secret_basic') {
    headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
  } else {
    tokenBody.set('client_id', clientId);
    tokenBody.set('client_secret', clientSecret);
  }
  response = await fetch(config.token_endpoint, { method: 'POST', headers, body: tokenBody.toString() });
  const tokens = await response.json();
  log(`POST ${new URL(config.token_endpoint).pathname} (${auth}) → ${response.status}`);
  assert(response.status === 200, `token: ${response.status} ${JSON.stringify(tokens)}`);
  assert(tokens.id_token && tokens.access_token, 'id_token and access_token');

  const claims = verifyIdToken(tokens.id_token, jwks);
  assert(claims.iss === config.issuer, `iss ${claims.iss}`);
  assert(claims.aud === clientId || (Array.isArray(claims.aud) && claims.aud.includes(clientId)), `aud ${claims.aud}`);
  assert(claims.nonce === nonce, 'nonce in the ID token');
  assert(claims.email === email, `email ${claims.email}`);
  assert(claims.email_verified === emailVerified, `email_verified ${claims.email_verified}`);
  assert(claims.name === name, `name ${claims.name}`);
  assert(typeof claims.sub === 'string' && claims.sub.length > 0, 'sub');

  // Userinfo says the same.
  response = await fetch(config.userinfo_endpoint, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  const userinfo = await response.json();
  assert(response.status === 200 && userinfo.sub === claims.sub && userinfo.email === email, `userinfo ${JSON.stringify(userinfo)}`);

  // The code is single use (and its reuse revokes what it gave).
  response = await fetch(config.token_endpoint, { method: 'POST', headers, body: tokenBody.toString() });
  assert(response.status === 400, `a reused code: ${response.status}`);
  return claims;
}

async function main() {
  const started = process.env.OIDC_ISSUER ? null : await startProvider();
  const issuer = process.env.OIDC_ISSUER || started.issuer;
  try {
    let response = await fetch(`${issuer}/.well-known/openid-configuration`);
    assert(response.status === 200, `discovery: ${response.status}`);
    const config = await response.json();
    assert(config.issuer === issuer, `issuer ${config.issuer} is not ${issuer}`);
    for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint']) assert(config[key], key);
    assert(config.id_token_signing_alg_values_supported.includes('RS256'), 'RS256 offered');
    for (const method of ['client_secret_basic', 'client_secret_post']) {
      assert(config.token_endpoint_auth_methods_supported.includes(method), `${method} offered`);
    }
    response = await fetch(config.jwks_uri);
    const jwks = await response.json();
    assert(response.status === 200 && jwks.keys.some((key) => key.kty === 'RSA' && key.alg === 'RS256'), 'an RS256 key in /jwks');
    assert(jwks.keys.every((key) => key.d === undefined), '/jwks holds no private key');

    const jar = new CookieJar();
    const first = await codeFlow(config, jwks, jar, { email: 'ada@example.com', emailVerified: true, name: 'Ada L', auth: 'client_secret_basic' });
    // The same browser again: the page still asks, the same address is the same sub.
    const second = await codeFlow(config, jwks, jar, { email: 'ADA@example.com', emailVerified: false, name: 'Ada', auth: 'client_secret_post' });
    assert(second.sub === first.sub, 'the same address (any case) is the same sub');
    const third = await codeFlow(config, jwks, new CookieJar(), { email: 'grace@example.com', emailVerified: true, name: 'Grace', auth: 'client_secret_basic' });
    assert(third.sub !== first.sub, 'another address is another sub');

    // A wrong secret is refused.
    response = await fetch(config.token_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: redirectUri, client_id: clientId, client_secret: 'wrong' }).toString(),
    });
    assert(response.status === 401, `a wrong secret: ${response.status}`);

    console.log(`OIDC provider check passed (${issuer})`);
  } finally {
    if (started) {
      started.child.kill('SIGTERM');
      const [code, signal] = await once(started.child, 'exit');
      if (code !== 0) {
        console.error(`provider exited with ${code ?? signal} after SIGTERM:\n${started.stderr()}`);
        process.exitCode = 1;
      }
    }
  }
}

main().catch((error) => {
  console.error(`OIDC provider check FAILED: ${error.message}`);
  process.exit(1);
});
