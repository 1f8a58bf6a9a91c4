import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, checkChromium } from './chromium.js';

/**
 * Global set-up of the e2e project: one Chromium for the whole run, which every test file connects
 * to instead of launching its own (each file still gets its own contexts, so cookies and storage
 * never cross files), closed when the run ends; and the app server's seeded template, built ahead
 * when the cache lacks it rather than inside the first e2e file's hook (minutes on a loaded machine).
 *
 * In a run with the unit and API projects (group 0) the build runs beside their tests, not before
 * them: Vitest runs every project's global set-up before the first test of any project, so
 * awaiting it here held group 0 for the whole build, one core of two building and the other idle
 * (a fresh clone's `npm test`). The e2e files run after group 0; by then it is done. An API file
 * that needs the same template meanwhile waits for the build's lock instead of building it twice
 * (seeded-template.ts).
 */
export default async function sharedBrowser(project: TestProject): Promise<() => Promise<void>> {
  checkChromium();
  const template = prepareTemplate();
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  // A run of the e2e project alone (`--project e2e <file>`) has nothing to overlap the build with,
  // and its first file would wait for it inside a hook (300 s, which a build on a loaded machine
  // overran: 4.5 min at load average 18, 29 Nov): it waits here, as before. (A run given files
  // but no --project lists every project and does not wait: use --project e2e, as docs/testing.md
  // says.)
  const vitest = project.vitest;
  const earlierGroup = vitest.projects.some(
    (other) =>
      other.config.sequence.groupOrder < project.config.sequence.groupOrder &&
      (vitest.config.project.length === 0 || vitest.matchesProjectFilter(other.name)),
  );
  if (!earlierGroup) await ended(template);
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return async () => {
    // A run that ends before the build does (a failure, a filter without e2e files) does not wait
    // for it; its lock names a dead process, which the next builder takes over.
    if (running(template)) template.kill();
    await server.close();
  };
}

/** scripts/test/prepare-template.ts in a process of its own; on failure the first file builds it. */
function prepareTemplate(): ChildProcess {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/test/prepare-template.ts'], {
    cwd: root,
    env: { ...process.env, ATRIUM_TEST_DB: 'pglite' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const failed = (why: string) =>
    console.warn(`e2e: the seeded template was not built ahead (${why}); the first file builds it.`);
  child.on('error', (error) => {
    notStarted.add(child);
    failed(error.message);
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') failed(`exit ${code ?? signal}: ${stderr.trim().slice(-500)}`);
  });
  return child;
}

const notStarted = new WeakSet<ChildProcess>();
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null && !notStarted.has(child);

/** Resolves when `child` has exited or could not be started. */
function ended(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (!running(child)) return resolve();
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
}
