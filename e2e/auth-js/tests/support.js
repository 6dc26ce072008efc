// Starts the real `prettyscore` binary and gives the tests auth-js clients,
// the development outbox and TOTP codes.

import { spawn, execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

import { GoTrueClient, GoTrueAdminApi } from '@supabase/auth-js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
export const binary = process.env.PRETTYSCORE_BIN ?? join(repoRoot, 'target/debug/prettyscore');

/** Environment of the server under test: mail in the outbox, generous limits. */
const baseEnv = {
  PRETTYSCORE_AUTH__DEV_OUTBOX: 'true',
  PRETTYSCORE_AUTH__SITE_URL: 'http://localhost:5173',
  PRETTYSCORE_AUTH__REDIRECT_ALLOW_LIST: '["http://localhost:5173/**"]',
  PRETTYSCORE_AUTH__RATE_LIMITS__EMAIL_RESEND_GAP_SECS: '0',
  PRETTYSCORE_AUTH__RATE_LIMITS__EMAILS_PER_HOUR: '10000',
  PRETTYSCORE_AUTH__RATE_LIMITS__TOKEN_PER_5MIN: '10000',
  PRETTYSCORE_AUTH__RATE_LIMITS__MAIL_REQUESTS_PER_5MIN: '10000',
  PRETTYSCORE_AUTH__RATE_LIMITS__VERIFY_PER_5MIN: '10000',
  PRETTYSCORE_AUTH__RATE_LIMITS__MFA_PER_MINUTE: '10000',
  RUST_LOG: 'warn',
};

/**
 * Starts `prettyscore serve` on a free port with a fresh data dir and waits
 * for its first stdout line, `PrettyScore listening on http://127.0.0.1:PORT`.
 */
export async function startServer(env = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'prettyscore-auth-js-'));
  const fullEnv = { ...process.env, ...baseEnv, ...env };
  delete fullEnv.DATABASE_URL;
  const child = spawn(binary, ['serve', '--bind', '127.0.0.1:0', '--data-dir', dataDir], {
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the server exited early with ${code}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = /^PrettyScore listening on (http:\/\/\S+)$/.exec(line.trim());
      if (match) resolveUrl(match[1]);
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
  lines.on('line', () => {});
  return {
    url,
    authUrl: `${url}/auth/v1`,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
    /** A service-role token from `prettyscore auth service-token`. */
    async serviceToken() {
      const { stdout } = await promisify(execFile)(
        binary,
        ['auth', 'service-token', '--days', '1', '--data-dir', dataDir],
        { env: fullEnv },
      );
      return stdout.trim();
    },
    /** The newest mail to `email` in the development outbox. */
    async lastMail(email) {
      const response = await fetch(`${url}/api/v1/dev/outbox?email=${encodeURIComponent(email)}`);
      if (!response.ok) throw new Error(`outbox answered ${response.status}`);
      const { messages } = await response.json();
      if (!messages.length) throw new Error(`no mail to ${email}`);
      return messages[0];
    },
  };
}

/** Storage that lives as long as the client, like one browser tab's localStorage. */
export function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

export function client(server, options = {}) {
  return new GoTrueClient({
    url: server.authUrl,
    headers: { apikey: 'anon' },
    storage: memoryStorage(),
    storageKey: 'sb-prettyscore-auth-token',
    autoRefreshToken: false,
    persistSession: true,
    detectSessionInUrl: false,
    ...options,
  });
}

export async function adminApi(server) {
  const token = await server.serviceToken();
  return new GoTrueAdminApi({ url: server.authUrl, headers: { Authorization: `Bearer ${token}` } });
}

/** The six-digit code in a mail. */
export function codeIn(mail) {
  const match = /code: (\d{6})/.exec(mail.body_text);
  if (!match) throw new Error(`no code in ${mail.body_text}`);
  return match[1];
}

export function linkIn(mail) {
  return mail.body_text.split('\n').find((line) => line.startsWith('http'));
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text) {
  let bits = '';
  for (const char of text.replace(/=+$/, '')) bits += BASE32.indexOf(char).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238: SHA-1, 6 digits, 30 s. */
export function totp(secret, at = Date.now()) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = digest[19] & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

let counter = 0;
export function uniqueEmail(prefix = 'user') {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@example.com`;
}

export const PASSWORD = 'correct-horse-battery';
