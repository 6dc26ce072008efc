/**
 * Build-time configuration. Everything here has a safe default so a fresh
 * checkout builds and runs with no .env file; the server supplies anything
 * that differs between deployments at run time (see features/app-config).
 */
export const env = {
  /** Shown before the server's own configuration has loaded. */
  SITE_NAME: import.meta.env.VITE_SITE_NAME ?? 'PrettyScore',
  /** Base path of the auth API, on the same origin as the app. */
  AUTH_PATH: '/auth/v1',
} as const;
