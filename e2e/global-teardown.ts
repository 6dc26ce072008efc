/** Stops the server and the test provider that global-setup.ts started, and removes the data directory. */
import fs from 'node:fs';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown() {
  const provider = Number(process.env.PRETTYSCORE_E2E_PROVIDER_PID);
  if (provider > 0 && isRunning(provider)) process.kill(provider, 'SIGTERM');
  const pid = Number(process.env.PRETTYSCORE_E2E_PID);
  if (pid > 0 && isRunning(pid)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (isRunning(pid) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
  const dataDir = process.env.PRETTYSCORE_E2E_DATA_DIR;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
