import { z } from '@atrium/sdk';

/**
 * The app runs under a Content-Security-Policy without 'unsafe-eval' (docs/security.md, "Headers").
 * Zod probes for eval with `new Function("")` on its first parse, to compile faster validators;
 * the probe's throw is caught, but the browser still reports a `securitypolicyviolation`. Jitless
 * mode skips the probe (same results, interpreted). Imported first by main.tsx, before any parse.
 */
z.config({ jitless: true });
