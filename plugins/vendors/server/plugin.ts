import { fileURLToPath } from 'node:url';
import { defineServerPlugin, type ServerPluginContext } from '@atrium/sdk/server';
import { connectionRoutes } from './connection-routes.js';
import { DocuSignClient, defaultAccount } from './docusign/docusign-client.js';
import { VendorConnections } from './oauth/connections.js';
import { getProtected } from './oauth/oauth-client.js';
import { endpointsOf } from './oauth/endpoints.js';
import { vendorsPermissions } from './permissions.js';
import { InvoiceSync } from './quickbooks/invoice-sync.js';
import { QuickBooksClient } from './quickbooks/quickbooks-client.js';
import { usageRoutes } from './usage-routes.js';

/**
 * Vendor connections (docs/vendors.md): QuickBooks Online and DocuSign over one OAuth framework
 * (authorization code + state + PKCE, tokens sealed by the secrets service, refresh before expiry,
 * sandbox or production), an invoice in QuickBooks for every issued policy (from the policies
 * module's `policies.policy.issued` event) and DocuSign envelopes for quote documents. Paths are
 * the spec's accounting and e-signature hosts below `/api`, hence the `/api` prefix.
 */
export default defineServerPlugin({
  id: 'vendors',
  title: 'Vendor connections',
  prefix: '/api',
  dbSchema: 'vendors',
  // The outbox rows it reads come from policies; its migrations need none of policies' tables.
  deps: ['policies'],
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: vendorsPermissions,
  routes(router, context) {
    const { connections, sync } = partsOf(context);
    connectionRoutes(router, connections, (params, username) =>
      connections.finish(params, username, async (vendor, app, tokens, row) => {
        if (vendor === 'quickbooks') {
          if (!params.realmId) throw new Error('QuickBooks did not name the company (realmId).');
          const now = new Date().toISOString();
          // Invoices are sent for policies issued from the first connection on, not for the whole book.
          const settings = { ...row.settings, invoices_from: row.settings.invoices_from ?? now };
          // The company's name, for the screens (its realm id is no name to show).
          const api = endpointsOf('quickbooks', app.environment).api!;
          const realm = encodeURIComponent(params.realmId);
          const info = (await getProtected(
            app,
            tokens.accessToken,
            `${api}/v3/company/${realm}/companyinfo/${realm}?minorversion=75`,
          ).catch(() => null)) as { CompanyInfo?: { CompanyName?: string } } | null;
          const accountName = info?.CompanyInfo?.CompanyName ?? 'QuickBooks company';
          return { accountId: params.realmId, accountName, settings };
        }
        const userinfo = await getProtected(
          app,
          tokens.accessToken,
          endpointsOf('docusign', app.environment).userinfo!,
        );
        const account = defaultAccount(userinfo);
        return { accountId: account.accountId, accountName: account.accountName, apiBaseUri: account.baseUri };
      }),
    );
    usageRoutes(router, context.db, connections, sync, () => new DocuSignClient(connections));
  },
  // Invoices go out where jobs are worked: a poll while QuickBooks is connected.
  background(context) {
    const { sync } = partsOf(context);
    const pollMs = Number(process.env.ATRIUM_VENDORS_POLL_MS) > 0 ? Number(process.env.ATRIUM_VENDORS_POLL_MS) : 5_000;
    let stopped = false;
    let running: Promise<unknown> = Promise.resolve();
    const tick = () => {
      if (stopped) return;
      running = sync
        .run()
        .catch((error: unknown) => context.log.error({ err: error }, 'QuickBooks invoice sync failed'))
        .finally(() => {
          if (!stopped) timer = setTimeout(tick, pollMs).unref();
        });
    };
    let timer = setTimeout(tick, pollMs).unref();
    return {
      async stop() {
        stopped = true;
        clearTimeout(timer);
        await running;
      },
    };
  },
});

/** One set per server (a test process may run several), keyed by its database. */
const parts = new WeakMap<object, { connections: VendorConnections; sync: InvoiceSync }>();
function partsOf(context: ServerPluginContext) {
  let found = parts.get(context.db);
  if (!found) {
    const connections = new VendorConnections(context.db, context.secrets);
    const sync = new InvoiceSync(context.db, connections, () => new QuickBooksClient(connections));
    found = { connections, sync };
    parts.set(context.db, found);
  }
  return found;
}
