import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, useE2eSession } from './browser.js';

/**
 * An adjuster's and a supervisor's day on a seeded claim (issue 15, items 6, 8 and 9), real server and
 * Chromium: the adjuster adds an exposure after FNOL; their 6,000.00 payment is over their authority
 * (5,000.00) and waits — they see no Approve; the Claims Supervisor (authority 25,000.00) approves it
 * from the same tab; the adjuster then closes the claim with a reason.
 */
const JSONAPI = 'application/vnd.api+json';

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
    await add.getByRole('combobox', { name: 'Adjuster' }).click();
    await page.getByRole('option', { name: 'Casey Adjuster (adjuster@atrium.test)' }).click();
    await add.getByRole('button', { name: 'Add exposure' }).click();
    await page.getByText(/^Exposure .+ was added\.$/).waitFor();
    await page.getByRole('cell', { name: 'Neighbor fence' }).waitFor();
    const after = await adjusterApi('GET', `/exposures/?filter[claim]=${claim.id}`);
    expect(after.body.data).toHaveLength(before.body.data.length + 1);
    const added = after.body.data.find((e: any) => e.attributes.exposure_name === 'Neighbor fence');
    expect(added.attributes).toMatchObject({ status: 'open', adjuster: 'adjuster@atrium.test' });

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
});
