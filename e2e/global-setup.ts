/**
 * Starts the real `prettyscore` binary on a free port with a fresh data
 * directory, and hands its address to the tests in PRETTYSCORE_BASE_URL.
 *
 * - PRETTYSCORE_BIN: the binary (default ../target/debug/prettyscore, from e2e/).
 * - PRETTYSCORE_BASE_URL: if already set, no server is started and the tests
 *   run against that address instead (for example a `vite preview`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { E2E_DIR, REPO_ROOT } from './support/paths';
import { serverBinary, startServer } from './support/server';

function fail(message: string): never {
  throw new Error(`[e2e global setup] ${message}`);
}

export default async function globalSetup() {
  if (process.env.PRETTYSCORE_BASE_URL) {
    console.log(`[e2e] using the server at ${process.env.PRETTYSCORE_BASE_URL}`);
    return;
  }

  const binary = serverBinary();
  if (!fs.existsSync(binary)) {
    fail(`no server binary at ${binary}. Build it with \`cargo build\` (or set PRETTYSCORE_BIN).`);
  }
  if (!fs.existsSync(path.join(REPO_ROOT, 'web', 'dist', 'index.html'))) {
    fail('web/dist/index.html is missing. Build the web app first: `cd web && npm ci && npm run build`.');
  }

  // The test OpenID Connect provider ("Test ID", tests/social-sign-in.spec.ts):
  // its port is chosen first, since the server is configured with its address
  // and the provider with the server's callback.
  const providerPort = await freePort();

  // The outbox, no drain and lifted per-client limits come with every e2e
  // server (support/server.ts); these settings are this one's.
  const { url, dataDir, child, logPath, log } = await startServer(
    {
      // The partner walk pays a commission out the day it is earned.
      PRETTYSCORE_PARTNERS__COMMISSION_HOLD_DAYS: '0',
      // A captured contact fee is payable at once and the transfer job runs
      // every second, so payouts.spec.ts sees the contestant paid.
      PRETTYSCORE_PAYMENTS__PAYOUT_WINDOW_DAYS: '0',
      PRETTYSCORE_PAYMENTS__PAYOUT_INTERVAL_SECS: '1',
      // "Continue with Test ID", and linking it from /account.
      PRETTYSCORE_AUTH__MANUAL_LINKING: 'true',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__KIND: 'oidc',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__LABEL: 'Test ID',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__CLIENT_ID: 'prettyscore',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__CLIENT_SECRET: 'e2e-secret',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__ISSUER: `http://127.0.0.1:${providerPort}`,
    },
    'server.log',
  ).catch((error: Error) => fail(error.message));

  const provider = await startTestProvider(providerPort, `${url}/auth/v1/callback`, log);
  process.once('exit', () => {
    if (provider.exitCode === null) provider.kill('SIGKILL');
  });

  process.env.PRETTYSCORE_BASE_URL = url;
  process.env.PRETTYSCORE_E2E_PROVIDER_PID = String(provider.pid);
  process.env.PRETTYSCORE_E2E_PID = String(child.pid);
  process.env.PRETTYSCORE_E2E_DATA_DIR = dataDir;
  console.log(`[e2e] prettyscore is listening on ${url} (data in ${dataDir}, log in ${logPath})`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts e2e/support/oidc-provider.mjs on `port` for the server's `callback`. */
async function startTestProvider(port: number, callback: string, log: fs.WriteStream): Promise<ChildProcess> {
  const script = path.join(E2E_DIR, 'support', 'oidc-provider.mjs');
  const provider = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: String(port), REDIRECT_URIS: callback, CLIENT_ID: 'prettyscore', CLIENT_SECRET: 'e2e-secret' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  provider.stderr!.pipe(log, { end: false });
  await new Promise<void>((resolve, reject) => {
    provider.once('exit', (code) => reject(new Error(`the test OpenID Connect provider exited with ${code} (see the server log)`)));
    readline.createInterface({ input: provider.stdout! }).once('line', (line) => {
      if (line.startsWith('OIDC provider listening on ')) resolve();
      else reject(new Error(`the test OpenID Connect provider said: ${line}`));
    });
  });
  return provider;
}
