/**
 * The app runs under a Content-Security-Policy without 'unsafe-eval' (docs/security.md, "Headers").
 * Zod probes for eval with `new Function("")` on its first parse, to compile faster validators;
 * the probe's throw is caught, but the browser still reports a `securitypolicyviolation`. Jitless
 * mode skips the probe (same results, interpreted). Imported first by main.tsx, before any parse.
 *
 * Set through the global zod reads its configuration from (`globalThis.__zod_globalConfig`, what
 * `z.config()` writes) rather than by importing zod: zod then loads with the first page that
 * validates, not with the shell (P3). strict-csp.test.ts checks that zod honours it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
// The same object zod keeps (it reads the global once, when it loads): set in place.
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};
