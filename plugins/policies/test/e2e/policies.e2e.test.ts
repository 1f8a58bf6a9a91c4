import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/**
 * In Chromium: an underwriter opens a policy with `g p`, endorses it, back-dates a second endorsement
 * (reviews its conflicts and commits it), compares revisions, cancels it short rate and reinstates it, each a job whose result the screen shows; an agent sees only their own policies.
 */
describe('policies in the browser', () => {
  const session = useE2eSession('policies');
  const query = async <T>(text: string) => (await session.server.atrium.database.pool.query(text)).rows as T[];

  it('an underwriter opens a policy with g p, endorses, commits a back-dated endorsement after review, compares, cancels short rate and reinstates', async () => {
    const [target] = await query<{ id: number; number: string; name: string }>(
      `select id, number, named_insured_name as name from policies.policy
        where status = 'In Force' and not cancellation_pending and product_slug = 'personal_auto'
          and id not in (select policy_id from policies.policy_term where number > 1)
        order by id limit 1`,
    );
    const page = await session.signIn('underwriter@atrium.test', '/policies');
    await page.getByRole('heading', { name: 'Policies', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Policies' }).getByRole('link', { name: target!.number }).waitFor();

    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('p');
    const search = page.getByRole('dialog', { name: 'Policy Quick Search' });
    await search.waitFor();
    await page.keyboard.type(target!.name.split(' ')[0]!);
    await search.getByText('Matching Policies').waitFor();
    const option = search.getByRole('option', { name: new RegExp(target!.number) });
    await option.waitFor();
    await option.click();
    await page.waitForURL((url) => url.pathname === `/policies/policy/${target!.id}`);
    await page.getByRole('heading', { name: `Policy ${target!.number}`, level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Endorse' }).click();
    const endorse = page.getByRole('dialog', { name: 'Endorse policy' });
    await endorse.getByLabel('New annual premium').fill('1111.00');
    await endorse.getByLabel('Changed risk field').fill('vehicle.use');
    await endorse.getByLabel('New value').fill('Business');
    await endorse.getByRole('button', { name: 'Endorse' }).click();
    await page.getByText('Endorsement completed.').waitFor();
    await endorse.waitFor({ state: 'hidden' });

    // A back-dated endorsement is out of sequence: its conflicts are reviewed, then it is committed.
    const backDated = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('button', { name: 'Endorse' }).click();
    await endorse.getByLabel('Effective date').fill(backDated);
    await endorse.getByLabel('New annual premium').fill('1050.00');
    await endorse.getByLabel('Changed risk field').fill('vehicle.use');
    await endorse.getByLabel('New value').fill('Pleasure');
    await endorse.getByRole('button', { name: 'Endorse' }).click();
    await page.getByText('This endorsement is out of sequence: review its conflicts under Transactions.').waitFor();
    await page.getByText('Out-of-sequence endorsement under review').waitFor();
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await page.getByRole('button', { name: 'Review conflicts' }).click();
    const review = page.getByRole('dialog', { name: 'Review out-of-sequence endorsement' });
    const conflicts = review.getByRole('table', { name: 'Conflicts' });
    await conflicts.getByRole('cell', { name: 'vehicle.use' }).waitFor();
    await conflicts.getByRole('cell', { name: 'Business' }).waitFor();
    await review.getByRole('button', { name: 'Commit' }).click();
    await page.getByText('Out-of-sequence endorsement committed.').waitFor();

    await page.getByRole('button', { name: 'Compare revisions' }).click();
    const compare = page.getByRole('dialog', { name: 'Compare revisions' });
    await compare.getByText(/Annual premium change/).waitFor();
    await compare.getByRole('table', { name: 'Premium by coverage' }).waitFor();
    await page.keyboard.press('Escape');
    await compare.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Cancel policy' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel policy' });
    await cancel.getByRole('combobox', { name: /^Method/ }).click();
    await page.getByRole('option', { name: 'Short rate' }).click();
    await cancel.getByText('Short rate returns 90% of the pro-rata return.').waitFor();
    await cancel.getByRole('button', { name: 'Cancel policy' }).click();
    await page.getByText('Cancellation completed.').waitFor();
    await page.getByRole('button', { name: 'Reinstate' }).waitFor();
    expect(await page.getByRole('button', { name: 'Endorse' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Reinstate' }).click();
    const reinstate = page.getByRole('dialog', { name: 'Reinstate policy' });
    await reinstate.getByRole('button', { name: 'Reinstate' }).click();
    await page.getByText('Reinstatement completed.').waitFor();
    await page.getByRole('button', { name: 'Cancel policy' }).waitFor();

    await page.getByRole('tab', { name: 'Transactions' }).click();
    const transactions = page.getByRole('table', { name: 'Transactions' });
    await transactions.getByRole('cell', { name: 'Reinstatement' }).waitFor();
    const types = await transactions.locator('tbody tr td:first-child').allInnerTexts();
    expect(types).toEqual(['Reinstatement', 'Cancellation', 'Endorsement', 'Endorsement', 'New business']);
    const [cancellation] = await query<{ result: { returnPremium: string; method: string } }>(
      `select result from policies.policy_transaction where policy_id = ${target!.id} and type = 'cancellation'`,
    );
    expect(cancellation!.result.method).toBe('short_rate');
    await page.getByRole('tab', { name: 'Billing' }).click();
    await page.getByRole('table', { name: 'Installments' }).waitFor();

    await page.screenshot({ path: '/tmp/policies-policy-billing.png' });

    // Renewals run over every policy expiring within the date, with a progress bar.
    await page.goto(`${session.server.url}/policies/failed-renewals`);
    await page.getByRole('heading', { name: 'Failed renewals', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Run renewals' }).click();
    await page.getByText(/renewals processed/).waitFor();
    await page.getByRole('progressbar', { name: 'Renewal run progress' }).waitFor();

    // The classic link of the previous portal lands on the same screen.
    await page.goto(`${session.server.url}/personal_auto/policies/information?policyId=${target!.id}`);
    await page.waitForURL((url) => url.pathname === `/policies/${target!.id}`);
    await page.getByRole('heading', { name: `Policy ${target!.number}`, level: 1 }).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('an agent sees only their own policies and cannot open another producer’s', async () => {
    const own = await query<{ number: string }>(
      `select number from policies.policy where agent_contact_id = 'CON-AGENT-ALEX' order by number`,
    );
    const [foreign] = await query<{ id: number }>(
      `select id from policies.policy where agent_contact_id <> 'CON-AGENT-ALEX' order by id limit 1`,
    );
    const page = await session.signIn('agent@agency.test', '/policies');
    const table = page.getByRole('table', { name: 'Policies' });
    await table.getByRole('link', { name: own[0]!.number }).waitFor();
    const shown = await table.locator('tbody tr td:first-child').allInnerTexts();
    expect(shown.map((s) => s.trim()).sort()).toEqual(own.map((o) => o.number).sort());

    await table.getByRole('link', { name: own[0]!.number }).click();
    await page.getByRole('heading', { name: `Policy ${own[0]!.number}`, level: 1 }).waitFor();
    // Agents read; no transaction buttons.
    await page.getByRole('button', { name: 'Compare revisions' }).waitFor();
    expect(await page.getByRole('button', { name: 'Endorse' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel policy' }).count()).toBe(0);

    await page.goto(`${session.server.url}/policies/policy/${foreign!.id}`);
    await page.getByText('The requested resource not found.').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);
  });
});
