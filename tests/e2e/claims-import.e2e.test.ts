import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * Import Historical Claims end to end (docs/claims-import.md): the administrator uploads a small
 * CSV, sees the dry run's figures, confirms, follows the run to completed and opens an imported
 * claim's workspace — real page, real server, real job queue.
 */
const COLUMNS =
  'claim_number,policy_number,product,date_of_loss,reported_date,loss_address,loss_city,loss_state,loss_zip,' +
  'loss_description,claim_status,adjuster,exposure_number,claimant_name,coverage,exposure_status,entry_type,' +
  'reserve_category,amount,posted_date,final_payment,reference,comments';

const CSV = [
  COLUMNS,
  'E2E-HIST-1,HO-9,Homeowners,2024-03-02,2024-03-04,12 Elm St,Springfield,IL,62701,Kitchen fire,open,,1,Pat Morgan,Dwelling,,reserve,indemnity,5000.00,2024-03-05,,,',
  'E2E-HIST-1,HO-9,Homeowners,2024-03-02,2024-03-04,12 Elm St,Springfield,IL,62701,Kitchen fire,open,,1,Pat Morgan,Dwelling,,payment,indemnity,1250.50,2024-04-01,no,CHK-1,',
  'E2E-HIST-2,PA-3,Personal Auto,2023-11-20,2023-11-20,,Peoria,IL,61602,Rear-ended,closed,,1,Sam Lee,Collision,,reserve,indemnity,3000.00,2023-11-21,,,',
  'E2E-HIST-2,PA-3,Personal Auto,2023-11-20,2023-11-20,,Peoria,IL,61602,Rear-ended,closed,,1,Sam Lee,Collision,,payment,indemnity,2800.00,2023-12-15,yes,,',
].join('\r\n');

describe('Import Historical Claims', () => {
  const e2e = useE2eSession('claims-import');

  it('uploads a CSV, previews it, imports it and opens an imported claim', async () => {
    const page = await e2e.signIn('admin@atrium.test', '/claims/admin-setup');
    await page.getByRole('link', { name: 'Import Historical Claims' }).click();
    await page.getByRole('heading', { name: 'Import Historical Claims' }).waitFor();

    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'history.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });

    const preview = page.getByLabel('Preview');
    await preview.getByText('Preview of history.csv').waitFor({ timeout: 15_000 });
    await expect.poll(() => preview.locator('[data-figure="To import"]').textContent(), { timeout: 10_000 }).toBe('2');
    await expect.poll(() => preview.locator('[data-figure="Entries"]').textContent(), { timeout: 10_000 }).toBe('4');
    await expect
      .poll(() => preview.locator('[data-figure="Total incurred"]').textContent(), { timeout: 10_000 })
      .toBe('7800.00');
    await preview.getByText('No problems found.').waitFor();

    await preview.getByRole('button', { name: 'Import 2 claims' }).click();
    const result = page.getByLabel('Import result');
    await result.getByText('Completed', { exact: true }).waitFor({ timeout: 30_000 });
    await result.getByText('2 imported, 0 skipped, 0 failed').waitFor();
    await page.getByLabel('Import runs').getByRole('cell', { name: 'history.csv' }).waitFor();

    await result.getByRole('link', { name: 'E2E-HIST-2' }).click();
    await page.waitForURL((url) => url.pathname === '/claims/E2E-HIST-2/details');
    await page.getByRole('heading', { name: 'Claim E2E-HIST-2' }).waitFor({ timeout: 15_000 });
    expect(e2e.errors).toEqual([]);
  });
});
