import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { FAKE_COMPANY_NAME, startFakeVendors, type FakeVendors } from '../fake-vendors.js';

/**
 * An administrator opens the vendor directory from the user menu, sets up QuickBooks (sandbox) and
 * connects it through the popup against the local stand-in; the popup returns to the host's
 * /oauth2callback page, which hands the code back and closes.
 */
describe('vendor connections in the browser', () => {
  let fake: FakeVendors;
  const saved = process.env.ATRIUM_VENDORS_TEST_ORIGIN;
  // Vendor URLs are read per call, so the origin may be set after the server started.
  beforeAll(async () => {
    fake = await startFakeVendors();
    fake.clients.set('qbo-e2e-client', 'qbo-e2e-secret');
    process.env.ATRIUM_VENDORS_TEST_ORIGIN = fake.origin;
  });
  afterAll(async () => {
    process.env.ATRIUM_VENDORS_TEST_ORIGIN = saved;
    await fake?.close();
  });
  const session = useE2eSession('vendors');

  it('sets up and connects QuickBooks through the popup, then disconnects', async () => {
    const page = await session.signIn('admin@atrium.test', '/');
    await page.getByRole('button', { name: /user menu$/ }).click();
    await page.getByRole('menuitem', { name: 'Vendor connections' }).click();
    await page.waitForURL(/\/integrations\/vendors$/);
    await page.getByRole('heading', { name: 'Vendors' }).waitFor();
    await page.getByRole('link', { name: 'QuickBooks Online' }).first().click();
    await page.getByRole('heading', { name: 'QuickBooks Online' }).waitFor();
    const status = page.getByTestId('connection-status');
    const statusIs = (text: string) =>
      page.waitForFunction(
        (wanted) => document.querySelector('[data-testid="connection-status"]')?.textContent === wanted,
        text,
      );
    await statusIs('Not set up');

    await page.getByLabel('Client ID').fill('qbo-e2e-client');
    await page.getByLabel('Client secret').fill('qbo-e2e-secret');
    await page.getByRole('button', { name: 'Save' }).click();
    await statusIs('Not connected');

    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Connect QuickBooks Online' }).click();
    await (await popup).waitForEvent('close');
    await statusIs('Connected');
    await page.getByRole('cell', { name: FAKE_COMPANY_NAME }).waitFor();
    expect(fake.tokenGrants).toEqual(['authorization_code']);
    expect(await page.getByRole('radio', { name: 'Production' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Are you sure you want to disconnect this connection?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await statusIs('Not connected');
    expect(fake.revoked).toHaveLength(1);
    expect(await status.textContent()).toBe('Not connected');
    expect(session.errors).toEqual([]);
  });
});
