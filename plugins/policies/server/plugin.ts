import { fileURLToPath } from 'node:url';
import { POLICY_DECLARATIONS_SOURCE } from '@atrium/plugin-documents/services';
import { defineServerPlugin, provideService } from '@atrium/sdk/server';
import { POLICY_BILLING, POLICY_ISSUANCE, POLICY_LOOKUP } from '../shared/policy-services.js';
import { declarationsSource } from './declarations.js';
import { POLICIES_EVENTS } from './events.js';
import { policiesPermissions } from './permissions.js';
import { policyGatewayMethods, policyRoutes } from './routes.js';
import { policyReporting } from './reporting-service.js';
import { seedPolicies } from './seed.js';
import { billingService, issuanceService, lookupService } from './services.js';
import { transactionRetryJob } from './transaction-retry-job.js';
import { transactionJob } from './transactions.js';

/**
 * The policies module (docs/policies.md): policies, terms, revisions, transactions and billing, in
 * the `policies` schema. Quote binds through POLICY_ISSUANCE and previews installments through
 * POLICY_BILLING inside its own transaction; claims looks policies up through POLICY_LOOKUP.
 */
export default defineServerPlugin({
  id: 'policies',
  title: 'Policies',
  prefix: '/api',
  dbSchema: 'policies',
  deps: ['contacts'],
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: policiesPermissions,
  events: POLICIES_EVENTS,
  provides: {
    services: [
      provideService(POLICY_ISSUANCE, () => issuanceService()),
      provideService(POLICY_BILLING, () => billingService()),
      provideService(POLICY_LOOKUP, () => lookupService()),
      // Documents produces a policy's declarations when it is issued and asks here for their data.
      provideService(POLICY_DECLARATIONS_SOURCE, declarationsSource),
      policyReporting,
    ],
  },
  gateway: policyGatewayMethods(),
  routes(router, context) {
    policyRoutes(router, context);
  },
  jobs: [transactionJob, transactionRetryJob],
  seed: seedPolicies,
});
