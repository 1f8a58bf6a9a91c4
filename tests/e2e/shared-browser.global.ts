import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, checkChromium } from './chromium.js';

/**
 * Global set-up of the e2e project: one Chromium for the whole run, which every test file connects
 * to instead of launching its own (each file still gets its own contexts, so cookies and storage
 * never cross files), closed when the run ends; and the app server's seeded template, built here
 * when the cache lacks it rather than inside the first file's hook (minutes on a loaded machine).
 */
export default async function sharedBrowser(project: TestProject): Promise<() => Promise<void>> {
  checkChromium();
  const [server] = await Promise.all([
    chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    prepareTemplate(),
  ]);
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}

/** scripts/test/prepare-template.ts in a process of its own; on failure the first file builds it. */
async function prepareTemplate(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../..');
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/test/prepare-template.ts'], {
      cwd: root,
      env: { ...process.env, ATRIUM_TEST_DB: 'pglite' },
    });
  } catch (error) {
    console.warn(
      `e2e: the seeded template was not built ahead (${(error as Error).message}); the first file builds it.`,
    );
  }
}
