import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * Payment Processing end to end (docs/claims-accounting.md, "Payment processing"): the administrator
 * opens the module from admin setup, runs a batch over every payment awaiting issue (the demo seed
 * posts payments on its claims), confirms the count and total, and sees the batch listed with that
 * total — real page, real server, real ledger.
 */
describe('Payment Processing', () => {
  const e2e = useE2eSession('claims-payment-processing');

  it('runs a payment batch and lists it with its total', async () => {
    const page = await e2e.signIn('admin@atrium.test', '/claims/admin-setup');
    await page.getByRole('textbox', { name: 'Search' }).fill('payment');
    await page.getByRole('link', { name: 'Payment Processing' }).click();
    await page.getByRole('heading', { name: 'Payment Processing', level: 1 }).waitFor();

    const queue = page.getByRole('table', { name: 'Payments awaiting issue' });
    await queue.locator('tbody tr').first().waitFor({ timeout: 15_000 });
    const summary = (await page.getByLabel('Queue total').textContent()) ?? '';
    const [, count, total] = /^(\d+) payments? awaiting issue, total ([\d,]+\.\d{2})/.exec(summary) ?? [];
    expect(Number(count)).toBeGreaterThan(0);
    expect(await queue.locator('tbody tr').count()).toBe(Number(count));

    await page.getByRole('button', { name: 'Run batch for all due' }).click();
    const confirm = page.getByRole('dialog', { name: 'Run payment batch' });
    await expect
      .poll(() => confirm.getByText(/^Issue \d+ payments? totalling/).textContent(), { timeout: 10_000 })
      .toBe(`Issue ${count} ${count === '1' ? 'payment' : 'payments'} totalling ${total}?`);
    await confirm.getByRole('button', { name: 'Run batch' }).click();

    const detail = page.getByRole('dialog', { name: /^Payment batch PB-\d{6}$/ });
    await detail.waitFor({ timeout: 15_000 });
    const title = (await detail.getByRole('heading').first().textContent()) ?? '';
    const number = /PB-\d{6}/.exec(title)?.[0];
    await detail
      .locator('tbody tr')
      .nth(Number(count) - 1)
      .waitFor({ timeout: 15_000 });
    expect(await detail.locator('tbody tr').count()).toBe(Number(count));
    await page.keyboard.press('Escape');

    const batches = page.getByRole('table', { name: 'Payment batches' });
    const row = batches.getByRole('row').filter({ hasText: number! });
    await row.waitFor();
    await row.getByRole('cell', { name: total, exact: true }).waitFor();
    await row.getByRole('cell', { name: count, exact: true }).waitFor();
    await page.getByText('No payments are awaiting issue.').waitFor({ timeout: 15_000 });
    expect(e2e.errors).toEqual([]);
  });
});
