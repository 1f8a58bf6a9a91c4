import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { as } from '@atrium/sdk/testing';
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
    // The configuration is edited in Monaco against the JSON Schema the plugin ships.
    await page
      .getByLabel('Configuration schema')
      .fill('{"type": "object", "properties": {"surcharge": {"type": "number"}}, "required": ["surcharge"]}');
    const typeConfiguration = async (text: string) => {
      await page.getByTestId('configuration-editor').locator('.view-lines').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(text);
      // Monaco closes brackets as they are typed; the closers it added are after the cursor.
      await page.keyboard.press('Control+Shift+End');
      await page.keyboard.press('Delete');
    };
    await typeConfiguration('[1, 2]');
    await page.getByText('The configuration must be a JSON object.').waitFor();
    await typeConfiguration('{"surcharge": "lots"}');
    await page
      .getByLabel('Configuration problem')
      .getByText(/Incorrect type. Expected "number"/)
      .waitFor();
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Register plugin' }).isDisabled()).toBe(true);
    await typeConfiguration('{"surcharge": 25}');
    await page.getByLabel('Configuration problem').waitFor({ state: 'detached' });
    // The administrator grants navigation on top of the default capabilities.
    await page.getByRole('checkbox', { name: 'Navigate' }).check();
    // Palette commands are JSON (checked as typed, then by the server); the search is a checkbox.
    await page.getByLabel('Palette commands').fill('{"id": "x"}');
    await page.getByText('The palette commands must be a JSON array.').waitFor();
    await page
      .getByLabel('Palette commands')
      .fill('[{"id": "surcharges", "title": "Flood surcharges", "shortcut": "F S"}]');
    await page.getByRole('checkbox', { name: 'Answers the palette’s search' }).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Register plugin' }).click();
    await page.getByText('Plugin registered').waitFor();
    const row = page.getByRole('row', { name: /Flood surcharge/ });
    await row.getByText('Quote · risk edit · button row').waitFor();
    await row.getByText('1 uploaded file').waitFor();
    const admin = await as(session.server, 'admin@atrium.test', { base: '/api/integrations', mediaType: 'jsonapi' });
    const records = (await (await admin.get('/plugins/')).json()) as {
      data: { attributes: { capabilities: string[]; configuration: unknown } }[];
    };
    expect(records.data[0]!.attributes).toMatchObject({
      configuration: { surcharge: 25 },
      palette_commands: [{ id: 'surcharges', title: 'Flood surcharges', shortcut: 'F S' }],
      palette_search: true,
    });
    expect(records.data[0]!.attributes.capabilities).toEqual([
      'read-context',
      'update-risk',
      'create-and-update-risk',
      'toast',
      'navigate',
    ]);

    await row.getByRole('switch', { name: 'Enable Flood surcharge' }).click({ force: true });
    await page.getByText('Plugin updated').waitFor();
    await row.locator('input[type=checkbox]:checked').waitFor({ state: 'attached' });
    await page.screenshot({ path: '/work/logs/ui-plugins-admin-list.png' });

    await row.getByRole('button', { name: 'Remove plugin Flood surcharge' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Plugin removed.').waitFor();
    await page.getByText('No plugins yet').waitFor();

    // The dev harness mounts the sample plugin in the real runtime, against a sample risk.
    await page.getByRole('button', { name: 'Plugin harness' }).click();
    await page.getByRole('heading', { name: 'Plugin harness' }).waitFor();
    await page.getByRole('button', { name: 'Mount plugin' }).click();
    await page.getByRole('region', { name: 'Slot' }).getByRole('button', { name: 'New roof' }).click();
    await page.getByText('Harness plugin: Roof year set').waitFor();
    await expect.poll(() => page.getByLabel('Risk answers').textContent()).toContain('"roof_year": 2024');
    expect(session.errors).toEqual([]);
  });
});
