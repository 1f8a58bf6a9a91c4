import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, useE2eSession } from './browser.js';

/**
 * An adjuster's and a supervisor's day on a seeded claim (issue 15, items 6, 8 and 9), real server and
 * Chromium: the adjuster adds an exposure after FNOL; their 6,000.00 payment is over their authority
 * (5,000.00) and waits — they see no Approve; the Claims Supervisor (authority 25,000.00) approves it
 * from the same tab; the adjuster then closes the claim with a reason.
 */
const JSONAPI = 'application/vnd.api+json';

/** Whether the page fits its window: no sideways scroll of the page or main, no table past the right edge. */
async function fitsWidth(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    return {
      pageScroll: document.documentElement.scrollWidth > window.innerWidth,
      mainScroll: main ? main.scrollWidth > main.clientWidth : false,
      clipped: [...document.querySelectorAll('main table')]
        .filter((t) => t.getBoundingClientRect().right > window.innerWidth + 1)
        .map((t) => t.getAttribute('aria-label') ?? 'table'),
    };
  });
}

describe('Claim workspace: an adjuster and a supervisor', () => {
  const e2e = useE2eSession('claims-workspace-day');
  const { errors, signIn } = e2e;

  async function caller(username: string) {
    const signed = await e2e.server.fetch('/api/identity/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: DEMO_PASSWORD }),
    });
    const token = ((await signed.json()) as { authentication_result: { access_token: string } }).authentication_result
      .access_token;
    return async (method: string, path: string, body?: unknown) => {
      const response = await e2e.server.fetch(`/api/claims${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: JSONAPI,
          ...(body ? { 'content-type': JSONAPI, 'idempotency-key': crypto.randomUUID() } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
  }

  it('adds an exposure, requests an over-limit payment the supervisor approves, and closes the claim with a reason', async () => {
    const adjusterApi = await caller('adjuster@atrium.test');
    const claims = await adjusterApi(
      'GET',
      '/claims/?filter[status]=open&filter[primary_adjuster]=adjuster@atrium.test&page[size]=1&page[number]=1&sort=-id',
    );
    const claim = claims.body.data[0];
    const claimNumber: string = claim.attributes.number;
    const before = await adjusterApi('GET', `/exposures/?filter[claim]=${claim.id}`);
    // The demo's claims are on the policies module's policies (their coverages copied on the claim);
    // a claim on a mock policy names its revision.
    const cover =
      claim.attributes.policy_source === 'policies'
        ? claim.attributes.policy_coverages[0]
        : (await adjusterApi('GET', `/integrations/policies/revisions/${claim.attributes.policy_revision_id}/`)).body
            .data.attributes.coverages[0];

    // Exposures tab: the claim grows after FNOL.
    const page = await signIn('adjuster@atrium.test', `/claims/${claimNumber}/exposures`);
    await page.getByRole('heading', { name: `Claim ${claimNumber}` }).waitFor();
    await page.getByRole('button', { name: 'Add exposure' }).click();
    const add = page.getByRole('dialog', { name: 'Add exposure' });
    await add.getByRole('button', { name: 'Add exposure' }).click();
    await add.getByText('This field is required.').waitFor();
    await add.getByRole('textbox', { name: 'Exposure name' }).fill('Neighbor fence');
    await add.getByRole('combobox', { name: 'Claimant' }).click();
    await page.getByRole('option').first().click();
    // The coverage is one of the policy revision's (by its name, with limit and deductible).
    await add.getByRole('combobox', { name: 'Coverage' }).click();
    await page.getByRole('option', { name: new RegExp(`^${cover.label} · limit `) }).click();
    await add.getByRole('combobox', { name: 'Adjuster' }).click();
    await page.getByRole('option', { name: 'Casey Adjuster (adjuster@atrium.test)' }).click();
    await add.getByRole('button', { name: 'Add exposure' }).click();
    await page.getByText(/^Exposure .+ was added\.$/).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Neighbor fence' }) });
    await row.getByRole('cell', { name: cover.label, exact: true }).waitFor();
    const after = await adjusterApi('GET', `/exposures/?filter[claim]=${claim.id}`);
    expect(after.body.data).toHaveLength(before.body.data.length + 1);
    const added = after.body.data.find((e: any) => e.attributes.exposure_name === 'Neighbor fence');
    expect(added.attributes).toMatchObject({
      status: 'open',
      adjuster: 'adjuster@atrium.test',
      coverage_type: cover.coverage_type,
      policy_revision_id: claim.attributes.policy_revision_id,
      coverage_name: cover.label,
    });

    // Exposure-level assignment: the adjuster gives the new exposure a field adjuster, then removes it.
    const displayNumber: string = added.attributes.display_number;
    await row.getByRole('button', { name: `Assign exposure ${displayNumber}` }).click();
    const assign = page.getByRole('dialog', { name: `Assign exposure ${displayNumber}` });
    await assign.getByRole('button', { name: 'Assign' }).click();
    await assign.getByText('This field is required.').first().waitFor();
    await assign.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: 'Casey Adjuster (adjuster@atrium.test)' }).click();
    await assign.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Field Adjuster' }).click();
    await assign.getByRole('button', { name: 'Assign' }).click();
    await row.getByText('Casey Adjuster (adjuster@atrium.test) · Field Adjuster').waitFor();
    const assigned = await adjusterApi('GET', `/integrations/users/exposure-assignments/?exposure_id=${added.id}`);
    expect(assigned.body.data.map((a: any) => a.attributes.username)).toEqual(['adjuster@atrium.test']);

    // At 1024 px the exposures tab fits: no sideways scroll, no table running past the window.
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.waitForTimeout(300);
    expect(await fitsWidth(page)).toEqual({ pageScroll: false, mainScroll: false, clipped: [] });
    await page.setViewportSize({ width: 1440, height: 900 });

    const remove = row.getByRole('button', {
      name: `Remove Casey Adjuster (adjuster@atrium.test) · Field Adjuster from exposure ${displayNumber}`,
    });
    await remove.click();
    await remove.waitFor({ state: 'detached' });
    await row.getByText('Nobody assigned').waitFor();

    // A reserve and a 6,000.00 payment on the new exposure: over the adjuster's 5,000.00, it waits.
    const exposure = { data: { type: 'exposures', id: added.id } };
    const reserve = await adjusterApi('POST', '/reserves/', {
      data: {
        type: 'reserves',
        attributes: { new_amount: '10000.00', reserve_category: 'indemnity' },
        relationships: { exposure },
      },
    });
    expect(reserve.status).toBe(201);
    const payment = await adjusterApi('POST', '/payments/', {
      data: {
        type: 'payments',
        attributes: { amount: '6000.00', reserve_category: 'indemnity' },
        relationships: { exposure },
      },
    });
    expect(payment.status).toBe(202);
    const pending = await adjusterApi('GET', `/transactions/${payment.body.data.id}/`);
    const txn: string = pending.body.data.attributes.number;

    // The requester sees the payment waiting, and no Approve or Reject.
    const decided = page.waitForResponse((r) => r.url().includes(`/approvals/${payment.body.data.id}/decision/`));
    await page.getByRole('tab', { name: 'Accounting' }).click();
    const approvals = page.getByRole('table', { name: 'Pending approvals' });
    await approvals.getByRole('cell', { name: txn }).waitFor();
    expect((await decided).status()).toBe(200);
    await page.waitForTimeout(300);
    expect(await approvals.getByRole('button', { name: `Approve ${txn}` }).count()).toBe(0);
    expect(await approvals.getByRole('button', { name: `Reject ${txn}` }).count()).toBe(0);

    // The supervisor (authority 25,000.00) approves it from the same tab.
    const supervisor = await signIn('supervisor@atrium.test', `/claims/${claimNumber}/accounting`);
    const queue = supervisor.getByRole('table', { name: 'Pending approvals' });
    await queue.getByRole('button', { name: `Approve ${txn}` }).click();
    await expect
      .poll(async () => (await adjusterApi('GET', `/transactions/${payment.body.data.id}/`)).body.data.attributes, {
        timeout: 15_000,
      })
      .toMatchObject({ transaction_status: 'posted' });
    await queue.getByRole('button', { name: `Approve ${txn}` }).waitFor({ state: 'detached' });
    expect(supervisor.url()).toContain(`/claims/${claimNumber}/accounting`);

    // Back to the adjuster: Change status offers Close Claim and asks for the reason.
    await page.getByRole('tab', { name: 'Details' }).click();
    await page.getByRole('button', { name: 'Change status' }).click();
    const change = page.getByRole('dialog', { name: `Change status of claim ${claimNumber}` });
    await change.getByRole('combobox', { name: 'New status' }).click();
    await page.getByRole('option', { name: 'Close Claim' }).click();
    await change.getByRole('button', { name: 'Change status' }).click();
    await change.getByText('This field is required.').waitFor();
    await change.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Claim Paid' }).click();
    await change.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('Reason: Claim Paid').waitFor();
    const closed = await adjusterApi('GET', `/claims/${claim.id}/`);
    expect(closed.body.data.attributes).toMatchObject({ status: 'closed', status_change_reason: 'Claim Paid' });

    expect(errors).toEqual([]);
  }, 240_000);

  it("an administrator edits a mock policy revision's coverages", async () => {
    const page = await signIn('admin@atrium.test', '/claims/admin-setup/mock-policies');
    await page.getByRole('heading', { name: 'Mock Policies Maintenance' }).waitFor();
    const table = page.getByRole('table', { name: 'Mock policies' });
    const edit = table.getByRole('button', { name: /^Edit coverages of .+ revision / }).first();
    const name = (await edit.getAttribute('aria-label'))!;
    const [, policyNumber, revisionNumber] = /^Edit coverages of (.+) revision (.+)$/.exec(name)!;
    await edit.click();
    const dialog = page.getByRole('dialog', { name: `Coverages of ${policyNumber} revision ${revisionNumber}` });
    await page.setViewportSize({ width: 1024, height: 768 });
    await dialog.getByRole('button', { name: 'Add coverage' }).waitFor();
    expect(await fitsWidth(page)).toEqual({ pageScroll: false, mainScroll: false, clipped: [] });
    const rows = await dialog.getByLabel(/^Limit of coverage \d+$/).count();
    expect(rows).toBeGreaterThan(0);

    // A new coverage: amounts are checked (2 decimal places) before anything is sent.
    await dialog.getByRole('button', { name: 'Add coverage' }).click();
    const n = rows + 1;
    await dialog.getByRole('button', { name: 'Save coverages' }).click();
    await dialog.getByText('This field is required.').first().waitFor();
    await dialog.getByLabel(`Coverage type of coverage ${n}`, { exact: true }).fill('Water Backup');
    await dialog.getByLabel(`Limit of coverage ${n}`, { exact: true }).fill('10000.555');
    await dialog.getByLabel(`Deductible of coverage ${n}`, { exact: true }).fill('250');
    await dialog.getByLabel(`Risk of coverage ${n}`, { exact: true }).fill('Main residence');
    await dialog.getByRole('button', { name: 'Save coverages' }).click();
    await dialog.getByText('Limit can not have more than 2 decimal places.').waitFor();
    await dialog.getByLabel(`Limit of coverage ${n}`, { exact: true }).fill('10000.50');
    // The first coverage goes.
    const firstType = await dialog.getByLabel('Coverage type of coverage 1', { exact: true }).inputValue();
    await dialog.getByRole('button', { name: 'Remove coverage 1' }).click();
    await dialog.getByRole('button', { name: 'Save coverages' }).click();
    await page.getByText(`The coverages of ${policyNumber} were saved.`).waitFor();

    const adminApi = await caller('admin@atrium.test');
    const found = await adminApi('GET', `/integrations/policies/search/?policyNumber=${policyNumber}`);
    const policy = found.body.data.find((p: any) => p.attributes.policy_number === policyNumber);
    const revision = policy.attributes.revisions.find((r: any) => r.number === revisionNumber);
    const coverages = revision.coverages as any[];
    expect(coverages).toHaveLength(rows);
    expect(coverages.map((c) => c.coverage_type)).not.toContain(firstType);
    expect(coverages.at(-1)).toMatchObject({
      coverage_type: 'Water Backup',
      limit: '10000.50',
      deductible: '250.00',
      risk: 'Main residence',
    });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);
});
