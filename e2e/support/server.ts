/**
 * Starts the real `prettyscore` binary on a free port with a fresh data
 * directory: global-setup.ts starts the server every test uses, and a spec
 * that needs another configuration (sign-up with email confirmation, in
 * tests/contact-return.spec.ts) starts one of its own the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { ARTIFACTS_DIR, E2E_DIR, REPO_ROOT } from './paths';

const READY_LINE = /PrettyScore listening on (http:\/\/[^\s]+)/;
const START_TIMEOUT_MS = 120_000;

/**
 * The settings every e2e server runs with: the development outbox, no
 * drain on stop, and the per-client limits lifted (every test comes from
 * 127.0.0.1).
 */
export const E2E_SERVER_ENV: Record<string, string> = {
  // Mail (password reset and confirmation links) readable at GET /api/v1/dev/outbox.
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
  // Likewise the auth API's per-address limits: the suite signs up and
  // signs in well over 30 accounts in five minutes from one address.
  PRETTYSCORE_AUTH__RATE_LIMITS__MAIL_REQUESTS_PER_5MIN: '10000',
  PRETTYSCORE_AUTH__RATE_LIMITS__TOKEN_PER_5MIN: '10000',
};

/** A started server: its address, data directory, process and log (which others may write to as well). */
export type RunningServer = { url: string; dataDir: string; child: ChildProcess; logPath: string; log: fs.WriteStream };

/** The binary the tests run: PRETTYSCORE_BIN (relative to e2e/) or ../target/debug/prettyscore. */
export function serverBinary(): string {
  return path.resolve(E2E_DIR, process.env.PRETTYSCORE_BIN ?? '../target/debug/prettyscore');
}

/**
 * Starts `prettyscore serve` with `env` on top of E2E_SERVER_ENV, logging to
 * artifacts/`logName`, and resolves once it prints its address.
 */
export async function startServer(env: Record<string, string>, logName: string): Promise<RunningServer> {
  const binary = serverBinary();
  if (!fs.existsSync(binary)) {
    throw new Error(`no server binary at ${binary}. Build it with \`cargo build\` (or set PRETTYSCORE_BIN).`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prettyscore-e2e-'));
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const logPath = path.join(ARTIFACTS_DIR, logName);
  const log = fs.createWriteStream(logPath);
  const child = spawn(binary, ['serve', '--bind', '127.0.0.1:0', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'info', ...E2E_SERVER_ENV, ...env },
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
  // Stop the server even if the run is interrupted before it is stopped.
  process.once('exit', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { url, dataDir, child, logPath, log };
}

/** Stops a server startServer started and removes its data directory. */
export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
