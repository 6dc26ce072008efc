#!/usr/bin/env node
/**
 * A test OpenID Connect provider ("Test ID") for the server's social sign-in
 * tests and Playwright: panva's oidc-provider (OpenID Certified), so the
 * server talks to a real implementation of the protocol rather than to a
 * stand-in of our own making. Test-only: it keeps its accounts in memory,
 * signs with a key made at start-up and lets anyone sign in as any address.
 *
 * Environment:
 *   REDIRECT_URIS  comma-separated redirect URIs of the one client (required)
 *   PORT           default 0 (a free port)
 *   HOST           default 127.0.0.1
 *   CLIENT_ID      default prettyscore
 *   CLIENT_SECRET  default prettyscore-test-secret
 *   ISSUER         default http://127.0.0.1:<the port it listens on>
 *
 * Once ready it prints exactly one line to stdout,
 *   OIDC provider listening on http://127.0.0.1:<port>
 * and nothing else there; errors go to stderr. SIGTERM and SIGINT stop it.
 *
 * Every authorization request shows the sign-in page (/interaction/<uid>),
 * even with a provider session, so each test picks its own address. The page's
 * one POST ends both the login and the consent prompts.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Provider, interactionPolicy } from 'oidc-provider';

// stdout carries the one "listening" line; oidc-provider's notices (console.info) go to stderr.
console.info = console.error;
console.log = console.error;

const env = process.env;
const host = env.HOST || '127.0.0.1';
const port = Number(env.PORT || 0);
const clientId = env.CLIENT_ID || 'prettyscore';
const clientSecret = env.CLIENT_SECRET || 'prettyscore-test-secret';
const redirectUris = (env.REDIRECT_URIS || '')
  .split(',')
  .map((uri) => uri.trim())
  .filter(Boolean);

if (redirectUris.length === 0) {
  console.error('REDIRECT_URIS is required: the comma-separated redirect URIs of the client');
  process.exit(2);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(env.PORT)}`);
  process.exit(2);
}

/** accountId → what the sign-in page last said about it. */
const accounts = new Map();

/** The same address (in any case) is always the same account, hence the same `sub`. */
function accountIdFor(email) {
  return `test-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24)}`;
}

/** A fresh signing key per run: the server reads it from /jwks, as it would a real provider's. */
function signingKeys() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' }] };
}

/** The base policy, with a login check that always asks unless this request's interaction just answered. */
function alwaysAskPolicy() {
  const { Check, base } = interactionPolicy;
  const policy = base();
  policy
    .get('login')
    .checks.add(
      new Check('test_idp_always_asks', 'The test provider asks for an address on every sign-in', (ctx) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );
  return policy;
}

function escapeHtml(value) {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
}

function signInPage({ action, clientName, email = '', emailVerified = true, name = 'Test User', error }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test ID — sign in</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 26rem; margin: 3rem auto; padding: 0 1rem; color: #1f2937; }
  form { display: grid; gap: 1rem; }
  label { display: grid; gap: .25rem; font-weight: 600; }
  label.check { display: flex; gap: .5rem; align-items: center; }
  input[type=email], input[type=text] { font: inherit; padding: .5rem .75rem; border: 1px solid #6b7280; border-radius: .5rem; }
  button { font: inherit; font-weight: 600; padding: .6rem 1rem; border: 0; border-radius: .5rem; background: #1d4ed8; color: #fff; cursor: pointer; }
  .note { color: #4b5563; font-size: .9rem; }
  .error { color: #b91c1c; font-weight: 600; }
</style>
</head>
<body>
<main>
<h1>Test ID — sign in</h1>
<p class="note">A test identity provider: any address signs in. ${escapeHtml(clientName)} asks for your email address and name.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
  <label>Email <input type="email" name="email" autocomplete="email" required value="${escapeHtml(email)}"></label>
  <label class="check"><input type="checkbox" name="email_verified" value="true"${emailVerified ? ' checked' : ''}> Email verified</label>
  <label>Name <input type="text" name="name" autocomplete="name" value="${escapeHtml(name)}"></label>
  <button type="submit">Continue</button>
</form>
</main>
</body>
</html>
`;
}

function send(res, status, body, type = 'text/html; charset=utf-8') {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

async function readForm(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The names of the claims the request's `claims` parameter asks for (userinfo and id_token). */
function requestedClaims(params) {
  if (!params.claims) return [];
  try {
    const claims = typeof params.claims === 'string' ? JSON.parse(params.claims) : params.claims;
    return [...Object.keys(claims.id_token ?? {}), ...Object.keys(claims.userinfo ?? {})];
  } catch {
    return [];
  }
}

/** GET and POST /interaction/:uid: the sign-in page, and the sign-in it submits. */
async function interaction(provider, req, res) {
  const details = await provider.interactionDetails(req, res);
  const action = `/interaction/${details.uid}`;
  const client = await provider.Client.find(details.params.client_id);
  const clientName = client?.clientName || details.params.client_id;

  if (req.method === 'GET') {
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    return send(res, 200, signInPage({ action, clientName, email: hint }));
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { Allow: 'GET, POST' });
    return res.end();
  }

  const form = await readForm(req);
  const email = (form.get('email') ?? '').trim();
  const emailVerified = form.get('email_verified') !== null;
  const name = (form.get('name') ?? '').trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
    return send(res, 400, signInPage({ action, clientName, email, emailVerified, name, error: 'Enter an email address.' }));
  }

  const accountId = accountIdFor(email);
  accounts.set(accountId, { email, email_verified: emailVerified, name: name || undefined });

  const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope('openid email profile');
  grant.addOIDCClaims(['email', 'email_verified', 'name', ...requestedClaims(details.params)]);
  const grantId = await grant.save();

  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

function start() {
  let provider;
  let handle;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (/^\/interaction\/[^/]+$/.test(path)) {
      interaction(provider, req, res).catch((error) => {
        console.error(`interaction ${req.method} ${path}: ${error.stack ?? error}`);
        if (!res.headersSent) {
          // An unknown or expired interaction (or its cookie missing): nothing to resume.
          const status = error.name === 'SessionNotFound' ? 400 : 500;
          send(res, status, `${error.name}: ${error.error_description ?? error.message}\n`, 'text/plain; charset=utf-8');
        } else {
          res.end();
        }
      });
      return;
    }
    handle(req, res);
  });

  server.on('error', (error) => {
    console.error(`OIDC provider: ${error.stack ?? error}`);
    process.exit(1);
  });

  server.listen(port, host, () => {
    const address = server.address();
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    const issuer = env.ISSUER || origin;

    provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          client_name: 'PrettyScore',
          redirect_uris: redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          // client_secret_post is accepted too: oidc-provider takes either of the two secret methods.
          token_endpoint_auth_method: 'client_secret_basic',
          id_token_signed_response_alg: 'RS256',
        },
      ],
      jwks: signingKeys(),
      cookies: { keys: [randomBytes(32).toString('hex')] },
      scopes: ['openid', 'email', 'profile'],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Scope claims in the ID token as well as at userinfo: the server reads the ID token.
      conformIdTokenClaims: false,
      // The server is a confidential client; it may still send PKCE, which is then checked.
      pkce: { required: () => false },
      features: { devInteractions: { enabled: false } },
      interactions: { policy: alwaysAskPolicy(), url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      async findAccount(_ctx, sub) {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: sub,
          async claims() {
            return { sub, ...account };
          },
        };
      },
      async renderError(ctx, out) {
        ctx.type = 'html';
        ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test ID — error</title></head><body><main><h1>Test ID — error</h1><pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre></main></body></html>`;
      },
    });
    handle = provider.callback();
    provider.on('server_error', (_ctx, error) => console.error(`server_error: ${error.stack ?? error}`));
    provider.on('authorization.error', (_ctx, error) => console.error(`authorization.error: ${error.error ?? ''} ${error.error_description ?? error.message}`));
    provider.on('grant.error', (_ctx, error) => console.error(`grant.error: ${error.error ?? ''} ${error.error_description ?? error.message}`));

    process.stdout.write(`OIDC provider listening on ${origin}\n`);
  });

  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections?.();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

start();
