import { defineConfig } from 'vitest/config';

/**
 * Timeouts below are guards against a hang, not budgets: tests wait for conditions, and two cores
 * shared with other work make the same test take several times longer (docs/testing.md).
 *
 * Test projects:
 * - unit:          *.test.ts(x) beside the code, no server
 * - api-pglite:    *.api.test.ts against a real server on a fresh in-memory PGlite
 * - api-postgres:  against fresh databases on TEST_DATABASE_URL (only when it is set): in `npm test`
 *                  the files whose subject is the database itself (POSTGRES_IN_NPM_TEST), in
 *                  `npm run test:full` every other API file (the PostgreSQL pass of the matrix)
 * - e2e:           tests/e2e/*.e2e.test.ts, Playwright driving /usr/bin/chromium against the built app
 *
 * `npm run test:full` (ATRIUM_TEST_FULL=1) runs the whole-app sweeps (*.sweep.*) whole and the rest
 * of the PostgreSQL pass; `npm test` runs everything else. Together they run every file on both
 * databases, as .ci/run does in two steps.
 */
const full = process.env.ATRIUM_TEST_FULL === '1';
const exclude = ['**/node_modules/**', '**/dist/**'];
const apiFiles = ['packages/**/*.api.test.ts', 'plugins/**/*.api.test.ts', 'tests/api/**/*.api.test.ts'];
const sweeps = ['**/*.sweep.*.test.ts'];

/**
 * API and e2e files share one module cache per worker (`isolate: false`): importing the server and
 * every plugin through Vitest's module runner costs ~5 s per file, paid once per worker instead of
 * once per file (api-pglite 95 files: ~8 min → ~3 min wall on 2 cores, 26 Nov). Each file still
 * starts its own server on its own database, so sharing modules shares no data. A file that
 * changes process-wide state that cannot be undone (OpenTelemetry registers one global tracer
 * provider per process) is listed here and runs in a fresh process of its own.
 */
const NEEDS_OWN_PROCESS = ['packages/server/src/tracing/*.api.test.ts'];

/**
 * API files whose subject behaves differently on a PostgreSQL server than on embedded PGlite (one
 * connection): several connections and processes, locks and concurrent writers, roles and
 * privileges, pg-boss's queues, the planner's row estimate, shared rate counters, database
 * templates. These run on PostgreSQL in every `npm test`; the rest of the API files run there in
 * `npm run test:full`. A new file that tests such behaviour belongs here.
 */
const POSTGRES_IN_NPM_TEST = [
  'packages/server/src/database/*.api.test.ts',
  'packages/server/src/mail/*.api.test.ts',
  'packages/sdk/src/server/resource/*.api.test.ts',
  'tests/api/database-privileges.api.test.ts',
  'tests/api/health.api.test.ts',
  'tests/api/seed.api.test.ts',
  'tests/api/seeded-template.api.test.ts',
  'tests/api/shutdown.api.test.ts',
  'plugins/identity/test/cache-invalidation.api.test.ts',
  'plugins/identity/test/refresh-concurrency.api.test.ts',
  'plugins/identity/test/throttling.api.test.ts',
  'plugins/claims/test/ledger/*.api.test.ts',
  'plugins/claims/test/core/bulk-claims.api.test.ts',
  'plugins/claims/test/core/agent-record-scope.api.test.ts',
  'plugins/claims/test/core/include-permissions.api.test.ts',
  // The contact store: resources, book scope, SSNs, classic calls (docs/contacts.md).
  'plugins/contacts/test/contacts.api.test.ts',
  // Not listed, though their subject is PostgreSQL-sensitive too, because `npm test` is over its
  // budget: they run on PostgreSQL in `npm run test:full` (which .ci/run runs) —
  // plugins/integrations/test/restart.api.test.ts (kill -9, resumed by `atrium worker`) and
  // plugins/policies/test/policies.api.test.ts (transactions as jobs under the row lock).
];

/**
 * Unit files share one module cache per worker too (`isolate: false`): a jsdom page test spent ~2 s
 * importing React, Mantine and the host per file (~100 s of CPU over the unit project, 29 Nov).
 * These files register into the host's process-wide registries (routes, shortcuts, quick-search,
 * My work) or mount the whole host, and assert on what is registered, so they keep a fresh module
 * graph each, in the `unit-isolated` project. A new unit file that fails only when run after others
 * belongs here.
 */
const UNIT_NEEDS_ISOLATION = [
  'packages/host/src/pages/my-work-section.test.tsx',
  'packages/host/src/quick-search/quick-search-modal.test.tsx',
  'packages/host/src/plugin-host.test.tsx',
  'packages/host/src/routing/guard-loader.test.tsx',
  'packages/host/src/routing/route-tree.test.tsx',
  'packages/host/src/shortcuts/shortcuts.test.tsx',
  'plugins/access/web/pages/assignments-page.test.tsx',
  'plugins/users/web/pages/user-edit-page.test.tsx',
  'plugins/users/web/pages/user-manage-page.test.tsx',
];
const unitFiles = ['packages/**/*.test.{ts,tsx}', 'plugins/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'];
const unitProject = {
  exclude: [...exclude, '**/*.api.test.ts', '**/*.e2e.test.ts'],
  // Whole pages render in jsdom and are typed into key by key: seconds on a loaded machine.
  setupFiles: ['./scripts/test/dom-setup.ts'],
  testTimeout: 120_000,
  hookTimeout: 60_000,
};

const projects = [
  {
    test: {
      ...unitProject,
      name: 'unit',
      include: full ? [] : unitFiles,
      exclude: [...unitProject.exclude, ...UNIT_NEEDS_ISOLATION],
      isolate: false,
    },
  },
  {
    test: {
      ...unitProject,
      name: 'unit-isolated',
      include: full ? [] : UNIT_NEEDS_ISOLATION,
    },
  },
  {
    test: {
      name: 'api-pglite',
      include: full ? ['**/*.sweep.api.test.ts'] : apiFiles,
      exclude: [...exclude, ...NEEDS_OWN_PROCESS],
      isolate: false,
      env: { ATRIUM_TEST_DB: 'pglite' },
      testTimeout: 120_000,
      // A file's first server may build the run's seeded template (tens of seconds under load).
      hookTimeout: 300_000,
    },
  },
  {
    test: {
      name: 'api-pglite-own-process',
      include: full ? [] : NEEDS_OWN_PROCESS,
      exclude,
      env: { ATRIUM_TEST_DB: 'pglite' },
      testTimeout: 120_000,
      hookTimeout: 300_000,
    },
  },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          test: {
            name: 'api-postgres',
            include: full ? apiFiles : POSTGRES_IN_NPM_TEST,
            // The sweeps' full versions run once, on PGlite.
            // NEEDS_OWN_PROCESS files (tracing: not database behaviour) run once, on PGlite.
            exclude: full
              ? [...exclude, ...sweeps, ...POSTGRES_IN_NPM_TEST, ...NEEDS_OWN_PROCESS]
              : [...exclude, ...NEEDS_OWN_PROCESS],
            isolate: false,
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
      include: full
        ? ['tests/e2e/**/*.sweep.e2e.test.ts', 'plugins/*/test/e2e/**/*.sweep.e2e.test.ts']
        : ['tests/e2e/**/*.e2e.test.ts', 'plugins/*/test/e2e/**/*.e2e.test.ts'],
      exclude,
      // CI shares two cores between a browser, the server and the test runner: one retry absorbs a
      // starved frame; a real fault fails twice (and the first failure still shows in the report).
      retry: process.env.CI ? 1 : 0,
      isolate: false,
      testTimeout: 120_000,
      hookTimeout: 300_000,
      // Each file with its own server and browser context, after the unit and API projects (group 0)
      // have finished.
      sequence: { groupOrder: 1 },
      // e2e files wait more than they compute (a browser drawing, debounces, network idle): two at a
      // a time used under one core of two (29 Nov, `time` over the e2e project), so three run at once.
      maxWorkers: 3,
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
