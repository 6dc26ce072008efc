import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { E2E_DIR, REPO_ROOT } from './paths';

/**
 * Makes a signed-up user an admin the way an operator does: `prettyscore
 * admin grant EMAIL` on the test server's data directory (global setup
 * started that server and shares the directory in the environment).
 */
export async function grantAdmin(email: string): Promise<void> {
  const dataDir = process.env.PRETTYSCORE_E2E_DATA_DIR;
  if (!dataDir) {
    throw new Error('granting the admin role needs the server that global setup starts (PRETTYSCORE_BASE_URL was given instead)');
  }
  const binary = path.resolve(E2E_DIR, process.env.PRETTYSCORE_BIN ?? '../target/debug/prettyscore');
  const { stdout } = await promisify(execFile)(binary, ['admin', 'grant', email, '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  if (!stdout.includes(email)) throw new Error(`prettyscore admin grant said: ${stdout}`);
}
