import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { CLAIMS_REPORTING } from '@atrium/plugin-claims/reporting';
import { POLICY_REPORTING } from '@atrium/plugin-policies/reporting';
import { reportsPermissions } from './permissions.js';
import { reportJob } from './report-job.js';
import { reportRoutes } from './routes.js';

/**
 * Reports (docs/reports.md): claims register, loss runs, reserves and payments, written and earned
 * premium, agent production and bordereaux, computed as jobs from the claims and policies reporting
 * services in the caller's scope; the agent portal's Payments. Reports owns only its runs.
 */
export default defineServerPlugin({
  id: 'reports',
  title: 'Reports',
  deps: [CLAIMS_REPORTING, POLICY_REPORTING],
  dbSchema: 'reports',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: reportsPermissions,
  routes(router, context) {
    reportRoutes(router, context);
  },
  jobs: [reportJob],
});
