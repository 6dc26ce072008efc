import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths';
import { serverBinary } from './server';

/**
 * Makes a signed-up user an admin the way an operator does: `prettyscore
 * admin grant EMAIL` on the test server's data directory (global setup
 * started that server and shares the directory in the environment), or on
 * `dataDir`, another server's.
 */
export async function grantAdmin(email: string, dataDir = process.env.PRETTYSCORE_E2E_DATA_DIR): Promise<void> {
  if (!dataDir) {
    throw new Error('granting the admin role needs the server that global setup starts (PRETTYSCORE_BASE_URL was given instead)');
  }
  const binary = serverBinary();
  const { stdout } = await promisify(execFile)(binary, ['admin', 'grant', email, '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  if (!stdout.includes(email)) throw new Error(`prettyscore admin grant said: ${stdout}`);
}
