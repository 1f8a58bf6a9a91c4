import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/**
 * An administrator registers a plugin with an uploaded file, is stopped by configuration that is not
 * a JSON object, enables it from the list, and removes it; each step says so in the spec's toasts.
 */
describe('UI plugins admin screens in the browser', () => {
  const session = useE2eSession('ui-plugins');

  it('registers, uploads, enables and removes a plugin', async () => {
    const file = '/tmp/ui-plugins-e2e-fixture.html';
    writeFileSync(file, '<!doctype html><p>Flood surcharge</p>');
    const page = await session.signIn('admin@atrium.test', '/integrations/plugins');
    await page.getByRole('heading', { name: 'Plugins' }).waitFor();
    await page.getByText('No plugins yet').waitFor();
    await page.getByRole('button', { name: 'Register plugin' }).click();
    await page.getByLabel('Name').fill('Flood surcharge');
    // Mantine's FileInput is a button that opens the browser's file chooser.
    const chooser = page.waitForEvent('filechooser');
    await page.getByLabel('Plugin file', { exact: true }).click();
    await (await chooser).setFiles(file);
    const configuration = page.getByLabel('Configuration');
    await configuration.fill('[1, 2]');
    await page.getByText('The configuration must be a JSON object.').waitFor();
    await configuration.fill('{"surcharge": 25}');
    await page.getByRole('dialog').getByRole('button', { name: 'Register plugin' }).click();
    await page.getByText('Plugin registered').waitFor();
    const row = page.getByRole('row', { name: /Flood surcharge/ });
    await row.getByText('Quote · risk edit · button row').waitFor();
    await row.getByText('1 uploaded file').waitFor();

    await row.getByRole('switch', { name: 'Enable Flood surcharge' }).click({ force: true });
    await page.getByText('Plugin updated').waitFor();
    await row.locator('input[type=checkbox]:checked').waitFor({ state: 'attached' });
    await page.screenshot({ path: '/work/logs/ui-plugins-admin-list.png' });

    await row.getByRole('button', { name: 'Remove plugin Flood surcharge' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Plugin removed.').waitFor();
    await page.getByText('No plugins yet').waitFor();
    expect(session.errors).toEqual([]);
  });
});
