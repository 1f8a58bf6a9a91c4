import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/** Components, assets and helper functions: an author adds and removes them; a reader only looks. */
describe('documents: components and assets', () => {
  const session = useE2eSession('documents-library');

  it('lets an author create a component, upload and delete an asset, and see the helpers', async () => {
    const png = new PNG({ width: 8, height: 8 });
    png.data.fill(0x40);
    // Named per attempt: a retry against the same server creates its own component and asset.
    const tag = Date.now().toString(36).slice(-5);
    const componentName = `premium-line-${tag}`;
    const assetName = `seal-mark-${tag}.png`;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'atrium-asset-')), `Seal Mark ${tag}.png`);
    writeFileSync(file, PNG.sync.write(png));

    const page = await session.signIn('author@atrium.test', '/documents');
    await page.getByRole('link', { name: 'Components and assets' }).click();
    await page.getByRole('heading', { name: 'Components and assets', level: 1 }).waitFor();
    const components = page.getByRole('table', { name: 'Components' });
    await components.getByText('#import "/components/signature-block.typ": *').waitFor();
    await page.getByRole('table', { name: 'Assets' }).getByRole('img', { name: 'atrium-logo.svg' }).waitFor();
    await page.getByRole('table', { name: 'Helper functions' }).getByText('$1,284.50').waitFor();

    await page.getByLabel('Component name').fill(componentName);
    await page.getByLabel('Component source').fill(`#let ${componentName}(p) = [Premium: #formatCurrency(p.premium)]`);
    await page.getByRole('button', { name: 'Create component' }).click();
    await page.getByText(`Component "${componentName}" created.`).waitFor();
    await components.getByText(`#import "/components/${componentName}.typ": *`).waitFor();

    // A component a template imports cannot be deleted; the reason shows.
    await page.getByRole('button', { name: 'Delete signature-block' }).click();
    await page.getByText('A template or component imports "signature-block"; remove the import first.').waitFor();

    await page.locator('input[type=file]').setInputFiles(file);
    await expect.poll(() => page.getByLabel('Asset name').inputValue(), { timeout: 10_000 }).toBe(assetName);
    await page.getByRole('button', { name: 'Upload asset' }).click();
    await page.getByText(`Asset "${assetName}" uploaded.`).waitFor();
    await page.getByRole('img', { name: assetName }).waitFor();
    await page.getByRole('button', { name: `Delete ${assetName}` }).click();
    await page.getByText(`Asset "${assetName}" deleted.`).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('shows a reader the components and assets without changing them', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/documents/library');
    await page.getByRole('heading', { name: 'Components and assets', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Show signature-block' }).click();
    await expect
      .poll(() => page.getByLabel('Source of signature-block').getAttribute('readonly'), { timeout: 10_000 })
      .not.toBeNull();
    expect(await page.getByRole('button', { name: 'Create component' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    expect(session.errors).toEqual([]);
  });
});
