import { existsSync } from 'node:fs';

/**
 * End-to-end tests drive Debian's Chromium (a browser download fails on these machines). Shared by
 * browser.ts (the test files' helpers) and shared-browser.global.ts (the run's one browser).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium's flags for these machines (no sandbox as root, no GPU, nothing that phones home). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function checkChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}; install it with apt-get install -y chromium.`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared Chromium for `chromium.connect` (set by shared-browser.global.ts). */
    chromiumWsEndpoint: string | undefined;
  }
}
