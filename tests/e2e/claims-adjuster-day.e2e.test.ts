import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * An adjuster's day (issue 15), through the real pages against the real server: files an FNOL on a
 * demo Personal Auto policy — loss category and peril offer only that product's values, the
 * coverage is one of the policy revision's — sees the toast and finds the claim in My claims; adds a
 * reserve and a payment with a chosen method to a party of the claim; uploads and downloads an
 * attachment; and sees one total incurred in the header, the claims list and Accounting.
 */
describe('An adjuster’s day', () => {
  const e2e = useE2eSession('claims-adjuster-day');
  const { errors, signIn } = e2e;

  /** The options a Mantine select offers, by its label. */
  async function optionsOf(page: Page, label: string): Promise<string[]> {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option').first().waitFor();
    const names = await page.getByRole('option').allTextContents();
    await page.keyboard.press('Escape');
    return names;
  }
  async function choose(page: Page, label: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page
      .getByRole('option', typeof option === 'string' ? { name: option, exact: true } : { name: option })
      .click();
  }

  it('files an FNOL, pays a party, keeps an attachment and sees one total incurred everywhere', async () => {
    const page = await signIn('adjuster@atrium.test', '/claims/fnol');
    await page.waitForURL((url) => url.pathname === '/claims/fnol');

    // Policy Search: a demo Personal Auto policy
    await page.getByRole('textbox', { name: 'Policy search' }).fill('PA-100211');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Select PA-100211' }).click();
    await page.getByRole('button', { name: 'Next' }).click();

    // Reported By
    await page.getByRole('heading', { name: 'Reported By' }).waitFor();
    await page.getByRole('textbox', { name: 'Reported by' }).fill('Rowan Insured');
    await page.getByRole('button', { name: 'Next' }).click();

    // Loss Details: only Personal Auto's categories and perils
    await page.getByRole('heading', { name: 'Loss Details' }).waitFor();
    await page.getByLabel('Date of loss').fill('2026-10-20');
    await page.getByRole('textbox', { name: 'Loss description' }).fill('Rear-ended at a light');
    await page.getByRole('textbox', { name: 'State' }).fill('CO');
    expect(await optionsOf(page, 'Loss category')).toEqual(['Auto Physical Damage', 'Bodily Injury']);
    await choose(page, 'Loss category', 'Auto Physical Damage');
    const perils = await optionsOf(page, 'Peril');
    expect(perils).toContain('Collision');
    expect(perils).not.toContain('Fire');
    await choose(page, 'Peril', 'Collision');
    await page.getByRole('button', { name: 'Next' }).click();

    // Claimants and Exposures: the policy revision's coverages
    await page.getByRole('heading', { name: 'Claimants and Exposures' }).waitFor();
    const coverages = await optionsOf(page, 'Coverage');
    expect(coverages).toEqual([
      expect.stringMatching(/^Collision · limit 50,000\.00 · deductible 500\.00 · /),
      expect.stringMatching(/^Comprehensive · /),
      expect.stringMatching(/^Bodily Injury · /),
    ]);
    await page.getByRole('textbox', { name: 'Claimant name' }).fill('Harper Claimant');
    await choose(page, 'Coverage', /^Collision/);
    await page.getByRole('button', { name: 'Add exposure' }).click();
    await page.getByRole('table', { name: 'Claimants and exposures' }).getByText('Harper Claimant').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    // Submit Claim: a toast, then the claim's workspace
    await page.getByRole('heading', { name: 'Submit Claim' }).waitFor();
    await page.getByRole('button', { name: 'Submit Claim', exact: true }).last().click();
    await page.waitForURL((url) => /^\/claims\/[^/]+\/details$/.test(url.pathname) && !url.pathname.includes('fnol'));
    const claimNumber = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    await page.getByText(`Claim ${claimNumber} was submitted.`).waitFor();
    await page.getByRole('heading', { name: `Claim ${claimNumber}` }).waitFor();

    // My claims lists what the adjuster filed
    await page.getByRole('link', { name: 'Dashboard' }).last().click();
    await page.waitForURL((url) => url.pathname === '/claims');
    await page.getByRole('table', { name: 'My claims' }).getByRole('link', { name: claimNumber }).click();
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/claims/${claimNumber}/details`);

    // Accounting: a reserve, then a payment by wire to the claimant (a party of the claim)
    await page.getByRole('tab', { name: 'Accounting' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/accounting'));
    const total = (key: string) => page.getByTestId(`total-${key}`);
    await expect.poll(() => total('total_incurred').textContent(), { timeout: 15_000 }).toBe('0.00');
    await page.getByRole('button', { name: 'Add reserve' }).click();
    const reserve = page.getByRole('dialog', { name: 'Add reserve' });
    await reserve.getByRole('textbox', { name: 'New reserve amount' }).fill('2000.00');
    await reserve.getByRole('button', { name: 'Save reserve' }).click();
    await page.getByText('The reserve was posted.').waitFor();

    await page.getByRole('button', { name: 'Add payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Add payment' });
    const payee = payment.getByRole('combobox', { name: 'Payee' });
    await payee.click();
    await payee.fill('harp');
    await page.getByRole('option', { name: 'Harper Claimant (Claimant)' }).click();
    await payment.getByRole('textbox', { name: 'Payment amount' }).fill('350.00');
    await choose(page, 'Payment method', 'Wire');
    await payment.getByRole('button', { name: 'Save payment' }).click();
    await page.getByText('The payment was posted.').waitFor();
    const payments = page.getByRole('table', { name: 'Payments' });
    const paid = payments.getByRole('row').filter({ hasText: '350.00' });
    await paid.getByText('Harper Claimant').waitFor();
    await expect.poll(() => total('total_incurred').textContent(), { timeout: 15_000 }).toBe('2,000.00');
    await expect.poll(() => page.getByTestId('claim-total-incurred').textContent()).toBe('2,000.00');

    // Attachments: the claim's folder from creation; upload, then download the same bytes
    await page.getByRole('tab', { name: 'Attachments' }).click();
    await page
      .getByRole('treeitem', { name: new RegExp(claimNumber) })
      .last()
      .waitFor();
    const content = Buffer.from(`Repair estimate for ${claimNumber}\n`);
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Upload' }).click(),
    ]);
    await chooser.setFiles({ name: 'estimate.txt', mimeType: 'text/plain', buffer: content });
    const files = page.getByRole('table', { name: 'Files' });
    await files.getByText('estimate.txt').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('button', { name: 'Download estimate.txt' }).click(),
    ]);
    const saved = path.join(tmpdir(), `atrium-e2e-${Date.now()}-estimate.txt`);
    await download.saveAs(saved);
    expect(await readFile(saved)).toEqual(content);

    // The same total incurred in the claims list
    await page.getByRole('link', { name: 'Dashboard' }).last().click();
    const mine = page.getByRole('table', { name: 'My claims' });
    await mine.getByRole('row').filter({ hasText: claimNumber }).getByText('2,000.00').waitFor();

    expect(errors).toEqual([]);
  }, 240_000);
});
