import { z } from 'zod';

/**
 * The server's Content-Security-Policy allows no `eval`. Zod would probe for
 * it (`new Function`) to compile faster parsers; the probe is caught, but the
 * browser still reports a CSP violation. Jitless parsing needs no eval.
 * Imported first in main.tsx, before any schema parses.
 */
z.config({ jitless: true });
