import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The e2e/ folder. */
export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root. */
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
/** The project's test images (sources and licences in testdata/README.md). */
export const TESTDATA_DIR = path.resolve(REPO_ROOT, 'testdata');
export const ARTIFACTS_DIR = path.join(E2E_DIR, 'artifacts');
