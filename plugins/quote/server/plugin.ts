import { fileURLToPath } from 'node:url';
import { ACTING_PLUGINS, defineServerPlugin } from '@atrium/sdk/server';
import { CONTACT_DIRECTORY } from '@atrium/plugin-contacts/directory';
import { LINES_ONTOLOGY } from '@atrium/plugin-lines/ontology-service';
import { POLICY_BILLING, POLICY_ISSUANCE } from '@atrium/plugin-policies/services';
import { RULES_RUNTIME } from '@atrium/plugin-rules/runtime';
import { abandonJob } from './abandon.js';
import { QUOTE_EVENTS } from './events.js';
import { attachmentRoutes } from './attachment-routes.js';
import { billingRoutes } from './billing-routes.js';
import { pluginChangeRoutes } from './plugin-change-audit.js';
import { quotePermissions } from './permissions.js';
import { quoteRoutes } from './routes.js';
import { quoteDocumentRoutes } from './document-routes.js';
import { quoteLookupService } from './quote-lookup.js';
import { settingsRoutes } from './settings-routes.js';
import { seedQuotes } from './seed.js';

/**
 * The quote module (docs/quote.md): quotable products, quotes and their risk trees, the page flow,
 * rating through @atrium/rating on the product version in force, UI controls and underwriting issues
 * from the rules module, statuses and triggers, billing previews, payment method tokens and bind
 * through the policies module's services.
 */
export default defineServerPlugin({
  id: 'quote',
  title: 'Quote',
  prefix: '/api',
  dbSchema: 'quote',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  deps: [
    'lines',
    'contacts',
    'rules',
    'policies',
    LINES_ONTOLOGY,
    RULES_RUNTIME,
    CONTACT_DIRECTORY,
    POLICY_ISSUANCE,
    POLICY_BILLING,
  ],
  // Third-party UI plugins, when installed, say which plugin a risk change was made for (audit).
  optionalDeps: [ACTING_PLUGINS],
  permissions: quotePermissions,
  // Quotes started, their status changes and binds, for webhooks and integrations (events.ts).
  events: QUOTE_EVENTS,
  // Quotes for the documents module (test-data picker, quote documents), within the caller's scope.
  provides: { services: [quoteLookupService] },
  jobs: [abandonJob],
  routes(router, context) {
    quoteRoutes(router, context);
    billingRoutes(router, context);
    attachmentRoutes(router, context);
    settingsRoutes(router, context);
    pluginChangeRoutes(router, context);
    quoteDocumentRoutes(router, context);
  },
  seed: seedQuotes,
});
