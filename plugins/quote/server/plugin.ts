import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { quotePermissions } from './permissions.js';

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
  permissions: quotePermissions,
});
