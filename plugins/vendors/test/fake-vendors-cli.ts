import { startFakeVendors } from './fake-vendors.js';

/**
 * The vendor stand-in on a fixed port, to walk the screens by hand against `npm start`
 * (docs/vendors.md): `npx tsx plugins/vendors/test/fake-vendors-cli.ts 4010`, then start Atrium with
 * ATRIUM_VENDORS_TEST_ORIGIN=http://127.0.0.1:4010. Demo app credentials: demo-client / demo-secret.
 */
const fake = await startFakeVendors(Number(process.argv[2] ?? 4010));
fake.clients.set('demo-client', 'demo-secret');
console.warn(`Fake QuickBooks and DocuSign at ${fake.origin} (client demo-client, secret demo-secret)`);
