import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, useE2eSession } from './browser.js';

/**
 * Claims end to end, through the real pages against the real claims service: the adjuster sees a
 * policies-module policy's coverages in force in the FNOL's Policy Search, then finds a (mock, test)
 * policy there, walks the wizard to a submitted claim, then adds a
 * reserve and a payment on its Accounting tab and sees the server's totals change.
 */
const JSONAPI = 'application/vnd.api+json';

describe('Claims', () => {
  const e2e = useE2eSession('claims');
  const { errors, signIn } = e2e;

  /** A mock policy for the Policy Search to find (Mock Policies Maintenance's API). */
  async function createPolicy(policyNumber: string, insured: string) {
    const signIn = await e2e.server.fetch('/api/identity/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'adjuster@atrium.test', password: DEMO_PASSWORD }),
    });
    const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
      .access_token;
    const response = await e2e.server.fetch('/api/claims/integrations/policies/', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': JSONAPI, accept: JSONAPI },
      body: JSON.stringify({
        data: {
          type: 'policy',
          attributes: {
            policy_number: policyNumber,
            insured_name: insured,
            revision: {
              number: '1',
              policy_term: { effective_date: '2026-01-01', expiration_date: '2027-01-01' },
              coverages: [{ coverage_type: 'Collision', limit: '50000.00', deductible: '500.00', risk: '2020 Sedan' }],
            },
          },
        },
      }),
    });
    expect(response.status).toBe(201);
  }

  it('goes from policy search through the FNOL to a submitted claim, adds a reserve and a payment and sees the totals', async () => {
    const policyNumber = `E2E-${Date.now()}`;
    await createPolicy(policyNumber, 'Erin Insured');
    const page = await signIn('adjuster@atrium.test', '/claims/fnol');
    await page.waitForURL((url) => url.pathname === '/claims/fnol');

    // Policy Search: a policies-module policy gives its revision in force on the loss date, with coverages.
    const { rows } = await e2e.server.atrium.database.pool.query<{ number: string }>(
      `SELECT p.number FROM policies.policy p JOIN policies.policy_term t ON t.policy_id = p.id
       WHERE p.status = 'In Force' AND t.effective_date <= current_date AND t.expiration_date > current_date
       ORDER BY p.id LIMIT 1`,
    );
    const realNumber = rows[0]!.number;
    await page.getByRole('textbox', { name: 'Policy search' }).fill(realNumber);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: `Select ${realNumber}` }).click();
    await page.getByRole('button', { name: 'Use the revision in force' }).click();
    const inForce = page.getByRole('table', { name: 'Coverages in force' });
    await inForce.getByRole('row').nth(1).waitFor();
    expect(await inForce.getByRole('row').count()).toBeGreaterThan(1);

    // The test policy of Mock Policies Maintenance, labelled as such.
    await page.getByRole('textbox', { name: 'Policy search' }).fill(policyNumber);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('row', { name: new RegExp(`${policyNumber}.*Test policy`) }).waitFor();
    await page.getByRole('button', { name: `Select ${policyNumber}` }).click();
    await page.getByRole('button', { name: 'Next' }).click();

    // Reported By (the draft now exists and the address names it)
    await page.getByRole('heading', { name: 'Reported By' }).waitFor();
    await page.waitForURL((url) => /^\/claims\/fnol\/.+/.test(url.pathname));
    await page.getByRole('textbox', { name: 'Reported by' }).fill('Erin Insured');
    await page.getByRole('button', { name: 'Next' }).click();

    // Loss details
    await page.getByRole('heading', { name: 'Loss Details' }).waitFor();
    await page.getByLabel('Date of loss').fill('2026-03-04');
    await page.getByRole('textbox', { name: 'Loss description' }).fill('Rear-ended at a traffic light');
    await page.getByRole('textbox', { name: 'State' }).fill('TX');
    await page.getByRole('button', { name: 'Next' }).click();

    // Claimants and exposures
    await page.getByRole('heading', { name: 'Claimants and Exposures' }).waitFor();
    await page.getByRole('combobox', { name: 'Coverage' }).click();
    await page.getByRole('option', { name: /^Collision/ }).click();
    await page.getByRole('button', { name: 'Add exposure' }).click();
    await page.getByRole('table', { name: 'Claimants and exposures' }).getByText('Collision').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    // Submit Claim → the claim's workspace
    await page.getByRole('heading', { name: 'Submit Claim' }).waitFor();
    // The stepper's last step is also called Submit Claim; the action button comes after it.
    await page.getByRole('button', { name: 'Submit Claim', exact: true }).last().click();
    await page.waitForURL((url) => /^\/claims\/[^/]+\/details$/.test(url.pathname) && !url.pathname.includes('fnol'));
    const claimNumber = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    await page.getByRole('heading', { name: `Claim ${claimNumber}` }).waitFor();
    await page.getByText('Open', { exact: true }).first().waitFor();

    // Accounting: a reserve, then a payment from it
    await page.getByRole('tab', { name: 'Accounting' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/accounting'));
    const total = (key: string) => page.getByTestId(`total-${key}`);
    await expect.poll(() => total('total_incurred').textContent(), { timeout: 15_000 }).toBe('0.00');

    await page.getByRole('button', { name: 'Add reserve' }).click();
    const reserve = page.getByRole('dialog', { name: 'Add reserve' });
    await reserve.getByRole('textbox', { name: 'New reserve amount' }).fill('1000.00');
    await reserve.getByRole('button', { name: 'Save reserve' }).click();
    await page.getByText('The reserve was posted.').waitFor();
    await expect.poll(() => total('reserve_outstanding').textContent(), { timeout: 15_000 }).toBe('1,000.00');
    expect(await total('total_incurred').textContent()).toBe('1,000.00');

    await page.getByRole('button', { name: 'Add payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Add payment' });
    await payment.getByRole('textbox', { name: 'Payment amount' }).fill('250.00');
    await payment.getByRole('combobox', { name: 'Payment method' }).click();
    await page.getByRole('option', { name: 'Check', exact: true }).click();
    await payment.getByRole('button', { name: 'Save payment' }).click();
    await page.getByText('The payment was posted.').waitFor();
    await expect.poll(() => total('paid').textContent(), { timeout: 15_000 }).toBe('250.00');
    expect(await total('reserve_outstanding').textContent()).toBe('750.00');
    expect(await total('total_incurred').textContent()).toBe('1,000.00');
    await page.getByRole('table', { name: 'Payments' }).getByText('250.00').waitFor();

    // g c finds the claim by part of its number from anywhere and opens its details.
    await page.getByRole('link', { name: 'Dashboard' }).last().click();
    await page.waitForURL((url) => url.pathname === '/claims');
    await page.getByRole('tab', { name: 'My claims' }).waitFor();
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    const search = page.getByRole('dialog', { name: 'Claim Quick Search' });
    await search.waitFor();
    await page.keyboard.type(claimNumber.slice(-4));
    await search.getByRole('option', { name: new RegExp(claimNumber) }).waitFor();
    await search.getByRole('option', { name: new RegExp(claimNumber) }).click();
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/claims/${claimNumber}/details`);

    expect(errors).toEqual([]);
  }, 180_000);
});
