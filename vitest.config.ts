import { defineConfig } from 'vitest/config';

/**
 * Timeouts below are guards against a hang, not budgets: tests wait for conditions, and two cores
 * shared with other work make the same test take several times longer (docs/testing.md).
 *
 * Test projects:
 * - unit:          *.test.ts(x) beside the code, no server
 * - api-pglite:    *.api.test.ts against a real server on a fresh in-memory PGlite
 * - api-postgres:  the same files against fresh databases on TEST_DATABASE_URL (only when it is set)
 * - e2e:           tests/e2e/*.e2e.test.ts, Playwright driving /usr/bin/chromium against the built app
 */
const exclude = ['**/node_modules/**', '**/dist/**'];
const apiFiles = ['packages/**/*.api.test.ts', 'plugins/**/*.api.test.ts', 'tests/api/**/*.api.test.ts'];

const projects = [
  {
    test: {
      name: 'unit',
      include: ['packages/**/*.test.{ts,tsx}', 'plugins/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'],
      exclude: [...exclude, '**/*.api.test.ts', '**/*.e2e.test.ts'],
      // Whole pages render in jsdom and are typed into key by key: seconds on a loaded machine.
      setupFiles: ['./scripts/test/dom-setup.ts'],
      testTimeout: 120_000,
      hookTimeout: 60_000,
    },
  },
  {
    test: {
      name: 'api-pglite',
      include: apiFiles,
      exclude,
      env: { ATRIUM_TEST_DB: 'pglite' },
      testTimeout: 120_000,
      // A file's first server may build the run's seeded template (tens of seconds under load).
      hookTimeout: 300_000,
    },
  },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          test: {
            name: 'api-postgres',
            include: apiFiles,
            exclude,
            env: { ATRIUM_TEST_DB: 'postgres' },
            testTimeout: 120_000,
            hookTimeout: 300_000,
          },
        },
      ]
    : []),
  {
    test: {
      name: 'e2e',
      include: ['tests/e2e/**/*.e2e.test.ts', 'plugins/*/test/e2e/**/*.e2e.test.ts'],
      exclude,
      // CI shares two cores between a browser, the server and the test runner: one retry absorbs a
      // starved frame; a real fault fails twice (and the first failure still shows in the report).
      retry: process.env.CI ? 1 : 0,
      testTimeout: 120_000,
      hookTimeout: 300_000,
      fileParallelism: false,
      // One Chromium for the run; each file connects to it (tests/e2e/browser.ts, launchBrowser).
      globalSetup: ['./tests/e2e/shared-browser.global.ts'],
    },
  },
];

export default defineConfig({
  test: {
    projects,
    // Two cores: more workers only make the database-heavy projects contend.
    maxWorkers: 2,
  },
});
