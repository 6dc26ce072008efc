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
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { ARTIFACTS_DIR, E2E_DIR, REPO_ROOT } from './support/paths';

const READY_LINE = /PrettyScore listening on (http:\/\/[^\s]+)/;
const START_TIMEOUT_MS = 120_000;

function fail(message: string): never {
  throw new Error(`[e2e global setup] ${message}`);
}

export default async function globalSetup() {
  if (process.env.PRETTYSCORE_BASE_URL) {
    console.log(`[e2e] using the server at ${process.env.PRETTYSCORE_BASE_URL}`);
    return;
  }

  const binary = path.resolve(E2E_DIR, process.env.PRETTYSCORE_BIN ?? '../target/debug/prettyscore');
  if (!fs.existsSync(binary)) {
    fail(`no server binary at ${binary}. Build it with \`cargo build\` (or set PRETTYSCORE_BIN).`);
  }
  if (!fs.existsSync(path.join(REPO_ROOT, 'web', 'dist', 'index.html'))) {
    fail('web/dist/index.html is missing. Build the web app first: `cd web && npm ci && npm run build`.');
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prettyscore-e2e-'));
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const logPath = path.join(ARTIFACTS_DIR, 'server.log');
  const log = fs.createWriteStream(logPath);

  // The test OpenID Connect provider ("Test ID", tests/social-sign-in.spec.ts):
  // its port is chosen first, since the server is configured with its address
  // and the provider with the server's callback.
  const providerPort = await freePort();

  const child: ChildProcess = spawn(binary, ['serve', '--bind', '127.0.0.1:0', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      RUST_LOG: process.env.RUST_LOG ?? 'info',
      // Mail (password reset links) readable at GET /api/v1/dev/outbox, for tests/auth.spec.ts.
      PRETTYSCORE_AUTH__DEV_OUTBOX: 'true',
      // Nothing to drain for: the teardown's SIGTERM stops it at once.
      PRETTYSCORE_HTTP__DRAIN_SECS: '0',
      // Every test edits and scores from 127.0.0.1: a per-client rate limit
      // must not stop the suite (tests/upload-speed.spec.ts alone scores
      // about a hundred copies), nor its signed-out edits a day. The free-edit
      // quota (5 per browser) stays.
      PRETTYSCORE_EDITS__PER_CLIENT_PER_MINUTE: '1000',
      PRETTYSCORE_EDITS__ANONYMOUS_PER_ADDRESS_PER_DAY: '100000',
      PRETTYSCORE_ANALYSIS__PER_CLIENT_PER_MINUTE: '1000',
      PRETTYSCORE_PARTNERS__CLICKS_PER_CLIENT_PER_MINUTE: '1000',
      // The partner walk pays a commission out the day it is earned.
      PRETTYSCORE_PARTNERS__COMMISSION_HOLD_DAYS: '0',
      // A captured contact fee is payable at once and the transfer job runs
      // every second, so payouts.spec.ts sees the contestant paid.
      PRETTYSCORE_PAYMENTS__PAYOUT_WINDOW_DAYS: '0',
      PRETTYSCORE_PAYMENTS__PAYOUT_INTERVAL_SECS: '1',
      // Likewise the auth API's per-address limits: the suite signs up and
      // signs in well over 30 accounts in five minutes from one address.
      PRETTYSCORE_AUTH__RATE_LIMITS__MAIL_REQUESTS_PER_5MIN: '10000',
      PRETTYSCORE_AUTH__RATE_LIMITS__TOKEN_PER_5MIN: '10000',
      // "Continue with Test ID", and linking it from /account.
      PRETTYSCORE_AUTH__MANUAL_LINKING: 'true',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__KIND: 'oidc',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__LABEL: 'Test ID',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__CLIENT_ID: 'prettyscore',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__CLIENT_SECRET: 'e2e-secret',
      PRETTYSCORE_AUTH__PROVIDERS__TEST__ISSUER: `http://127.0.0.1:${providerPort}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.pipe(log, { end: false });

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the server printed no "PrettyScore listening on" line within ${START_TIMEOUT_MS / 1000} s (see ${logPath})`));
    }, START_TIMEOUT_MS);
    const lines = readline.createInterface({ input: child.stdout! });
    let found = false;
    lines.on('line', (line) => {
      log.write(`${line}\n`);
      const match = READY_LINE.exec(line);
      if (match && !found) {
        found = true;
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, ''));
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!found) reject(new Error(`the server exited (code ${code}, signal ${signal}) before listening (see ${logPath})`));
    });
  });

  // Stop the server even if the run is interrupted before global teardown.
  process.once('exit', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

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
