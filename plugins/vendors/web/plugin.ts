import { defineCommand, definePlugin, type PluginRoute } from '@atrium/sdk';
import { docusignRoute, quickbooksRoute, vendorsRoute } from './routes.js';

/**
 * Vendor connections' web half (docs/vendors.md): the vendor directory and the QuickBooks and
 * DocuSign pages. `moduleKey` ties them to `ui:vendors`, which only Administrators hold by default.
 */
const page = (ref: { name: string; path: string }, title: string, loader: PluginRoute['loader']): PluginRoute => ({
  name: ref.name,
  path: ref.path,
  meta: { layout: 'default', title },
  loader,
});

export default definePlugin({
  id: 'vendors',
  title: 'Vendor connections',
  moduleKey: 'vendors',
  routes: [
    page(vendorsRoute, 'Vendors', () => import('./pages/vendor-directory-page.js')),
    page(quickbooksRoute, 'QuickBooks Online', () =>
      import('./pages/vendor-page.js').then((m) => ({ default: m.QuickBooksPage })),
    ),
    page(docusignRoute, 'DocuSign', () => import('./pages/vendor-page.js').then((m) => ({ default: m.DocuSignPage }))),
  ],
  nav: [
    { id: 'vendors.menu', title: 'Vendor connections', to: vendorsRoute, area: 'user-menu', order: 2 },
    { id: 'vendors.directory', title: 'Vendors', to: vendorsRoute, area: 'sub', order: 1, command: 'vendors.open' },
    { id: 'vendors.quickbooks', title: 'QuickBooks Online', to: quickbooksRoute, area: 'sub', order: 2 },
    { id: 'vendors.docusign', title: 'DocuSign', to: docusignRoute, area: 'sub', order: 3 },
  ],
  commands: [
    defineCommand({
      id: 'vendors.open',
      title: 'Open Vendor Connections',
      group: 'Integrations',
      keywords: ['vendors', 'quickbooks', 'docusign', 'accounting', 'e-signature', 'oauth'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(vendorsRoute.link({})),
    }),
  ],
});
