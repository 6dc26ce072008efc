import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The e2e/ folder. */
export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root. */
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
/** Shared test images live beside the repository: ../shared/testdata from its root. */
export const TESTDATA_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'testdata');
export const ARTIFACTS_DIR = path.join(E2E_DIR, 'artifacts');
