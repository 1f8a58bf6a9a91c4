import { prepareTestTemplate } from '@atrium/sdk/testing';

/**
 * Builds the seeded template of a test server of every installed plugin when the cache lacks it
 * (tests/e2e/shared-browser.global.ts runs it before the e2e files, in its own process: the server
 * code needs Node's own module loader, which vitest's global set-up does not offer).
 */
await prepareTestTemplate();
process.exit(0);
