import { z } from 'zod';

/**
 * The app's one way to zod: every schema imports `z` from here, never from
 * 'zod' (eslint.config.js refuses that), so the setting below is made before
 * any schema exists, in whichever lazily loaded screen needs zod first. The
 * home page needs none, and zod stays out of its first load.
 *
 * The server's Content-Security-Policy allows no `eval`. Zod would probe for
 * it (`new Function`) to compile faster parsers; the probe is caught, but the
 * browser still reports a CSP violation. Jitless parsing needs no eval.
 */
z.config({ jitless: true });

export { z };
