import { fileURLToPath } from 'node:url';
import { defineServerPlugin, provideService } from '@atrium/sdk/server';
import { CONTACT_DIRECTORY } from '../shared/contact-directory.js';
import { CONTACT_RECORDS } from '../shared/contact-records.js';
import { contactRoutes } from './contact-routes.js';
import { createContactDirectory } from './directory.js';
import { createContactRecords } from './records.js';
import { contactGatewayMethods } from './gateway-methods.js';
import { contactsPermissions } from './permissions.js';
import { seedContacts } from './seed.js';
import { resealStoredSsns } from './ssn-reseal.js';

/**
 * The contacts module (docs/contacts.md): one store of people and organisations for claims, quote
 * and policies. JSON:API resources under /api/contacts and the classic /api/v2/contacts calls — hence the
 * prefix /api — and the classic gateway's contact methods (gateway-methods.ts).
 */
export default defineServerPlugin({
  id: 'contacts',
  title: 'Contacts',
  prefix: '/api',
  dbSchema: 'contacts',
  // Absolute, so the server finds it whatever directory it runs from.
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: contactsPermissions,
  provides: {
    services: [
      provideService(CONTACT_DIRECTORY, () => createContactDirectory()),
      // The claims integration's contacts (/api/claims/integrations/contacts/…) over the store.
      provideService(CONTACT_RECORDS, (context) => createContactRecords(context)),
    ],
  },
  // The classic gateway's contact methods; the server owns the /api/gateway route.
  gateway: contactGatewayMethods,
  routes(router, context) {
    contactRoutes(router, context);
    // SSNs sealed under a retired key move to the current one, in the background (ssn-reseal.ts).
    const resealing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => resealStoredSsns(context.db, context.secrets, context.log))
      .then(
        () => undefined,
        (error: unknown) => context.log.warn({ err: error }, 'resealing stored SSNs failed'),
      );
    router.addHook('onClose', async () => resealing);
  },
  seed: seedContacts,
});
