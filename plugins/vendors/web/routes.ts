import { createRouteRef } from '@atrium/sdk';

/** The spec's vendor directory under Integrations: the list, then the QuickBooks and DocuSign pages. */
export const vendorsRoute = createRouteRef({ name: 'integrations:vendors', path: '/integrations/vendors' });
export const quickbooksRoute = createRouteRef({
  name: 'integrations:vendors:quickbooks',
  path: '/integrations/vendors/quickbooks',
});
export const docusignRoute = createRouteRef({
  name: 'integrations:vendors:docusign',
  path: '/integrations/vendors/docusign',
});
