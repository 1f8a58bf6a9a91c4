import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';
import { CONTACT_RECORDS } from '@atrium/plugin-contacts/records';
import { POLICY_LOOKUP } from '@atrium/plugin-policies/services';
import { registerCoreRoutes } from './core/routes.js';
import { CLAIMS_EVENTS } from './events.js';
import { emailRoutes } from './email/email-routes.js';
import { importJob } from './import/import-job.js';
import { registerImportRoutes } from './import/routes.js';
import { registerLedgerRoutes } from './ledger/routes.js';
import { contactClaimsService } from './integrations/contact-claims.js';
import { claimLookupService } from './integrations/claim-lookup.js';
import { claimsReporting } from './reporting-service.js';
import { attachmentOrphansJob } from './integrations/attachment-orphans-job.js';
import { registerIntegrationRoutes } from './integrations/routes.js';
import { claimsGatewayMethods } from './integrations/classic-gateway.js';
import { CLAIMS_PERMISSION_DECLARATIONS } from './permissions.js';
import { seedBulkClaims } from './seed/bulk-claims.js';
import { seedClaims } from './seed/demo-claims.js';

/**
 * The claims module: FNOL drafts and claims, exposures, parties and the lookups products configure
 * (core/), the append-only accounting ledger (ledger/), and the integrations claims screens call
 * (integrations/: users, attachments, contacts, mock policies). Everything answers JSON:API under
 * /api/claims with trailing slashes.
 */
export default defineServerPlugin({
  id: 'claims',
  title: 'Claims',
  // Claims users are identity users (integrations/claims-users.ts); its contacts are the contact
  // store's (integrations/contacts-routes.ts, parties' contact_id).
  deps: [USER_DIRECTORY, CONTACT_RECORDS],
  // When policies is installed it comes first: the claims demo is filed on its demo policies.
  optionalDeps: [POLICY_LOOKUP],
  dbSchema: 'claims',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: CLAIMS_PERMISSION_DECLARATIONS,
  events: CLAIMS_EVENTS,
  // The claims a contact is a party to, for the contacts module's contact page; claims in the
  // documents module's data-point shape, for claim letters' previews (both within the caller's scope).
  provides: { services: [contactClaimsService, claimsReporting, claimLookupService] },
  // The classic gateway's claims calls (retrieveClaimsList, retrieveAttachments, email_files).
  gateway: claimsGatewayMethods,
  routes(router, context) {
    registerCoreRoutes(router, context);
    registerIntegrationRoutes(router, context);
    registerLedgerRoutes(router, context);
    emailRoutes(router, context);
    registerImportRoutes(router, context);
  },
  jobs: [importJob, attachmentOrphansJob],
  seed: seedClaims,
  // `npm run seed -- --claims N`: a carrier's volume of claims (seed/bulk-claims.ts).
  volumes: {
    claims: async ({ db, progress }, count) => ({ ...(await seedBulkClaims(db, count, progress)) }),
  },
});
