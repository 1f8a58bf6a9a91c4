import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * End-to-end tests drive Debian's Chromium (a browser download fails on these machines) against a
 * real server serving the built SPA (`npm test` builds it first) on a fresh embedded database.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// ATRIUM_E2E_WEB_DIST lets several people build and test the SPA side by side on one checkout.
export const WEB_DIST = process.env.ATRIUM_E2E_WEB_DIST
  ? path.resolve(process.env.ATRIUM_E2E_WEB_DIST)
  : path.resolve(import.meta.dirname, '../../dist/web');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}; install it with apt-get install -y chromium.`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function startAppServer(): Promise<TestServer> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('dist/web is not built; run `npx vite build` (npm test does it).');
  }
  return startTestServer({ webDist: WEB_DIST });
}
