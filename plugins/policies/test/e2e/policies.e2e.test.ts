import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { linesRatingService } from '../../../lines/server/rating/rating-provider.js';
import { ratingTree } from '../../server/rerate.js';
import { issuanceService } from '../../server/services.js';
import { singleDriverTree } from '../rating-tree.js';

/**
 * In Chromium (issue 21's journey): an underwriter opens a bound policy with `g p`, endorses it
 * (re-rated by lines), back-dates a second endorsement (reviews its conflicts and commits it),
 * compares revisions factor by factor, cancels it short rate, reinstates and renews it, each a job
 * whose result the screen shows; an adjuster files an FNOL on it and sees its coverages; an agent
 * sees only their own policies.
 */
describe('policies in the browser', () => {
  const session = useE2eSession('policies');
  const query = async <T>(text: string) => (await session.server.atrium.database.pool.query(text)).rows as T[];

  it('an underwriter endorses a bound policy, commits a back-dated endorsement after review, compares factor by factor, cancels short rate, reinstates and renews; an adjuster files an FNOL on it', async () => {
    // A policy as bind issues it: the quote's risk tree, rated by lines on its term (POLICY_ISSUANCE).
    const db = session.server.atrium.database.db;
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const effectiveDate = day(-60);
    const expirationDate = `${Number(effectiveDate.slice(0, 4)) + 1}${effectiveDate.slice(4)}`;
    const risks = singleDriverTree();
    const rated = await linesRatingService.create({} as never).rate(db, {
      product: 'personal_auto',
      ratingDate: effectiveDate,
      transactionType: 'new_business',
      termStart: effectiveDate,
      termEnd: expirationDate,
      risk: ratingTree(risks)!,
    });
    if (!rated.ok) throw new Error(rated.message);
    const issued = await db.transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: 'e2e-bound',
        quoteNumber: 'QTE-E2E',
        productSlug: 'personal_auto',
        productVersionId: String(rated.versionId),
        state: 'TX',
        effectiveDate,
        expirationDate,
        namedInsured: { contactId: null, name: 'Marlowe Okonkwo' },
        agentContactId: 'CON-AGENT-ALEX',
        agencyContactId: 'CON-AGENCY-HARBOUR',
        premium: rated.termPremium,
        worksheet: rated.worksheet,
        risks,
        billing: { scheduleId: 'quarterly', paymentMethodId: null },
        issuedBy: 'underwriter@atrium.test',
      }),
    );
    const target = { id: Number(issued.policyId), number: issued.policyNumber };

    const page = await session.signIn('underwriter@atrium.test', '/policies');
    await page.getByRole('heading', { name: 'Policies', level: 1 }).waitFor();
    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('p');
    const search = page.getByRole('dialog', { name: 'Policy Quick Search' });
    await search.waitFor();
    await page.keyboard.type('Marlowe');
    const option = search.getByRole('option', { name: new RegExp(target.number) });
    await option.waitFor();
    await option.click();
    await page.waitForURL((url) => url.pathname === `/policies/policy/${target.id}`);
    await page.getByRole('heading', { name: `Policy ${target.number}`, level: 1 }).waitFor();

    // Endorsed without a premium: the changed risk is re-rated by the lines engine.
    await page.getByRole('button', { name: 'Endorse' }).click();
    const endorse = page.getByRole('dialog', { name: 'Endorse policy' });
    await endorse.getByLabel('Changed risk field').fill('vehicle.usage');
    await endorse.getByLabel('New value').fill('business');
    await endorse.getByRole('button', { name: 'Endorse' }).click();
    await page.getByText('Endorsement completed.').waitFor();
    await endorse.waitFor({ state: 'hidden' });

    // A back-dated endorsement is out of sequence: its conflicts are reviewed, then it is committed.
    await page.getByRole('button', { name: 'Endorse' }).click();
    await endorse.getByLabel('Effective date').fill(day(-10));
    await endorse.getByLabel('Changed risk field').fill('vehicle.usage');
    await endorse.getByLabel('New value').fill('pleasure');
    await endorse.getByRole('button', { name: 'Endorse' }).click();
    await page.getByText('This endorsement is out of sequence: review its conflicts under Transactions.').waitFor();
    await page.getByText('Out-of-sequence endorsement under review').waitFor();
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await page.getByRole('button', { name: 'Review conflicts' }).click();
    const review = page.getByRole('dialog', { name: 'Review out-of-sequence endorsement' });
    const conflicts = review.getByRole('table', { name: 'Conflicts' });
    await conflicts.getByRole('cell', { name: 'vehicle.usage' }).waitFor();
    await conflicts.getByRole('cell', { name: 'business' }).waitFor();
    await review.getByRole('button', { name: 'Commit' }).click();
    await page.getByText('Out-of-sequence endorsement committed.').waitFor();

    // Compare the first and the latest revision factor by factor (usage commute → business).
    await page.getByRole('button', { name: 'Compare revisions' }).click();
    const compare = page.getByRole('dialog', { name: 'Compare revisions' });
    const factors = compare.getByRole('table', { name: 'Premium by factor' });
    await factors.getByRole('row', { name: /^Vehicle\s+Usage relativity\s+1\s+1\.2\s+0\.2$/ }).waitFor();
    await factors.getByRole('row', { name: /Answer: Usage\s+commute\s+business/ }).waitFor();
    await factors
      .getByRole('row', { name: /Rate table: Usage factor\s+1\s+1\.2\s+0\.2/ })
      .first()
      .waitFor();
    await compare.getByText(/^Rated premium: /).waitFor();
    expect(await compare.getByText(/without re-rating/).count()).toBe(0);
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

    await page.getByRole('button', { name: 'Renew' }).click();
    const renew = page.getByRole('dialog', { name: 'Renew policy' });
    await renew.getByText('re-rated on the product version in force then').waitFor();
    await renew.getByRole('button', { name: 'Renew' }).click();
    await page.getByText('Renewal completed.').waitFor();

    await page.getByRole('tab', { name: 'Transactions' }).click();
    const transactions = page.getByRole('table', { name: 'Transactions' });
    await transactions.getByRole('cell', { name: 'Renewal' }).waitFor();
    await transactions.getByRole('row', { name: /^Renewal .*Re-rated on product version 2026\.1\./ }).waitFor();
    await transactions.getByRole('row', { name: /^Cancellation .*as an adjustment installment\./ }).waitFor();
    const types = await transactions.locator('tbody tr td:first-child').allInnerTexts();
    expect(types).toEqual(['Renewal', 'Reinstatement', 'Cancellation', 'Endorsement', 'Endorsement', 'New business']);
    const results = await query<{ type: string; result: Record<string, unknown> }>(
      `select type, result from policies.policy_transaction where policy_id = ${target.id} order by id`,
    );
    expect(results.find((r) => r.type === 'cancellation')!.result.method).toBe('short_rate');
    expect(results.find((r) => r.type === 'renewal')!.result.rerated).toBe(true);
    await page.getByRole('tab', { name: 'Billing' }).click();
    await page.getByRole('table', { name: 'Installments' }).waitFor();

    // Renewals run over every policy expiring within the date, with a progress bar.
    await page.goto(`${session.server.url}/policies/failed-renewals`);
    await page.getByRole('heading', { name: 'Failed renewals', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Run renewals' }).click();
    await page.getByText(/renewals processed/).waitFor();
    await page.getByRole('progressbar', { name: 'Renewal run progress' }).waitFor();

    // The classic link of the previous portal (the carrier's product slug, default atrium) lands on the same screen.
    await page.goto(`${session.server.url}/atrium/policies/information?policyId=${target.id}`);
    await page.waitForURL((url) => url.pathname === `/policies/${target.id}`);
    await page.getByRole('heading', { name: `Policy ${target.number}`, level: 1 }).waitFor();

    // An adjuster files an FNOL on that policy and sees its coverages in force.
    const adjuster = await session.signIn('adjuster@atrium.test', '/claims/fnol');
    await adjuster.waitForURL((url) => url.pathname === '/claims/fnol');
    await adjuster.getByRole('textbox', { name: 'Policy search' }).fill(target.number);
    await adjuster.getByRole('button', { name: 'Search', exact: true }).click();
    await adjuster.getByRole('button', { name: `Select ${target.number}` }).click();
    await adjuster.getByRole('button', { name: 'Use the revision in force' }).click();
    const inForce = adjuster.getByRole('table', { name: 'Coverages in force' });
    await inForce.getByRole('row', { name: /Collision/i }).waitFor();
    await inForce.getByRole('row', { name: /Bodily injury/i }).waitFor();
    await adjuster.getByRole('button', { name: 'Next' }).click();
    await adjuster.getByRole('heading', { name: 'Reported By' }).waitFor();
    await adjuster.getByRole('textbox', { name: 'Reported by' }).fill('Marlowe Okonkwo');
    await adjuster.getByRole('button', { name: 'Next' }).click();
    await adjuster.getByRole('heading', { name: 'Loss Details' }).waitFor();
    await adjuster.getByLabel('Date of loss').fill(day(-1));
    await adjuster.getByRole('textbox', { name: 'Loss description' }).fill('Hail on the parked car');
    await adjuster.getByRole('textbox', { name: 'State' }).fill('TX');
    await adjuster.getByRole('button', { name: 'Next' }).click();
    await adjuster.getByRole('heading', { name: 'Claimants and Exposures' }).waitFor();
    await adjuster.getByRole('combobox', { name: 'Coverage' }).click();
    await adjuster.getByRole('option', { name: /^Comprehensive/ }).click();
    await adjuster.getByRole('button', { name: 'Add exposure' }).click();
    await adjuster.getByRole('button', { name: 'Next' }).click();
    await adjuster.getByRole('heading', { name: 'Submit Claim' }).waitFor();
    await adjuster.getByRole('button', { name: 'Submit Claim', exact: true }).last().click();
    await adjuster.waitForURL(
      (url) => /^\/claims\/[^/]+\/details$/.test(url.pathname) && !url.pathname.includes('fnol'),
    );
    const [claim] = await query<{ policy_source: string; policy_ref: string; coverages: number }>(
      `select policy_source, policy_ref, jsonb_array_length(policy_coverages) as coverages from claims.claim
        where policy_number = '${target.number}' order by id desc limit 1`,
    );
    expect(claim).toMatchObject({ policy_source: 'policies', policy_ref: String(target.id), coverages: 5 });
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
