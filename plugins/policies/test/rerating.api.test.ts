import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import linesPlugin from '@atrium/plugin-lines/server';
import { linesRatingService } from '../../lines/server/rating/rating-provider.js';
import policiesPlugin from '../server/plugin.js';
import { ratingTree } from '../server/rerate.js';
import { issuanceService } from '../server/services.js';
import { singleDriverTree } from './rating-tree.js';

type Json = Record<string, any>;

/**
 * Re-rating through the lines module's rating service (LINES_RATING): endorsements without a premium
 * and renewals are rated on the product version (a renewal on the version in force at the renewal
 * date), revisions compare factor by factor from their worksheets, and what cannot be re-rated is
 * carried or refused with the reason.
 */
describe('policies re-rated through lines', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      plugins: [identityPlugin, accessPlugin, contactsPlugin, linesPlugin, policiesPlugin],
    });
  });
  afterAll(() => server?.close());

  const api = (user: string) => as(server, user, { base: '/api' });
  const json = async (response: Response, status = 200): Promise<Json> => {
    const body = await response.text();
    expect(response.status, body).toBe(status);
    return body ? JSON.parse(body) : {};
  };
  const db = () => server.atrium.database.db;
  const rating = linesRatingService.create({} as never);
  /** Issues a policy as bind does, rated by lines on its term. */
  const bind = async (risks: Json, effectiveDate = '2026-01-01') => {
    const expirationDate = `${Number(effectiveDate.slice(0, 4)) + 1}${effectiveDate.slice(4)}`;
    const rated = await rating.rate(db(), {
      product: 'personal_auto',
      ratingDate: effectiveDate,
      transactionType: 'new_business',
      termStart: effectiveDate,
      termEnd: expirationDate,
      risk: ratingTree(risks)!,
    });
    if (!rated.ok) throw new Error(rated.message);
    return db().transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: 'q-rated',
        quoteNumber: 'QTE-RATED',
        productSlug: 'personal_auto',
        productVersionId: String(rated.versionId),
        state: 'TX',
        effectiveDate,
        expirationDate,
        namedInsured: { contactId: null, name: 'Sam Nguyen' },
        agentContactId: 'CON-AGENT-ALEX',
        agencyContactId: 'CON-AGENCY-HARBOUR',
        premium: rated.termPremium,
        worksheet: rated.worksheet,
        risks,
        billing: { scheduleId: 'quarterly', paymentMethodId: null },
        issuedBy: 'underwriter@atrium.test',
      }),
    );
  };
  const transact = async (body: Json) => {
    const caller = await api('underwriter@atrium.test');
    const started = await json(await caller.post('/policies/policy-transactions/', body), 202);
    for (;;) {
      const row = await json(await caller.get(`/policies/policy-transactions/${started.id}/`));
      if (row.status === 'completed' || row.status === 'failed' || row.oos_status === 'conflicts') return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const revisions = async (policyId: string) =>
    (await json(await (await api('underwriter@atrium.test')).get(`/policies/revisions/?filter[policy_id]=${policyId}`)))
      .results as Json[];

  it('re-rates an endorsement and a renewal (on the version in force at the renewal date) and explains the premium factor by factor', async () => {
    const issued = await bind(singleDriverTree());
    const underwriter = await api('underwriter@atrium.test');
    const policy = await json(await underwriter.get(`/policies/policies/${issued.policyId}/`));
    expect(policy).toMatchObject({ annual_premium: '1247.81', rerateable: true });
    const risk = await json(await underwriter.get(`/policies/formatted-risk/?policy_id=${issued.policyId}`));
    expect(risk.tabs.map((t: Json) => t.tab)).toEqual(['Policy', 'Vehicle', 'Driver']);
    expect(risk.tabs[1].rows).toContainEqual({ label: 'Usage', value: 'commute' });

    const endorsed = await transact({
      policy: Number(issued.policyId),
      type: 'endorsement',
      effective_date: '2026-07-01',
      changes: { 'vehicle.usage': 'business' },
    });
    expect(endorsed).toMatchObject({
      status: 'completed',
      result: { rerated: true, previousAnnualPremium: '1247.81' },
    });
    const endorsedPremium = endorsed.result.annualPremium as string;
    // Billing: the increase for the rest of the term is spread over the two quarters still due.
    expect(endorsed.result.spreadOver).toBe(2);
    const billing = await json(
      await underwriter.post('/v2/payments/retrieve_policy_billing_information', {
        policy_id: Number(issued.policyId),
      }),
    );
    const amounts = billing.installments.map((i: Json) => Number(i.amount));
    expect(amounts.reduce((a: number, b: number) => a + b, 0).toFixed(2)).toBe(
      (1247.81 + Number(endorsed.result.writtenPremiumDelta)).toFixed(2),
    );
    expect(Number(endorsedPremium)).toBeGreaterThan(1247.81);

    const [second, first] = await revisions(issued.policyId);
    const compare = await json(
      await underwriter.get(`/policies/compare-transactions/?from_revision=${first!.id}&to_revision=${second!.id}`),
    );
    expect(compare.changes).toContainEqual({ field: 'Vehicle › Usage', from: 'commute', to: 'business' });
    expect(compare.rated_premium_change).toBe(compare.annual_premium_change);
    expect(compare.not_rated_change).toBe('0.00');
    const usage = compare.calculations.find((c: Json) => c.risk === 'Vehicle' && c.calculation === 'usage_relativity');
    expect(usage).toMatchObject({ from: '1', to: '1.2' });
    expect(usage.factors).toContainEqual({ kind: 'table', name: 'usage_factor', from: '1', to: '1.2', change: '0.2' });
    expect(usage.factors).toContainEqual({
      kind: 'field',
      name: 'usage',
      from: 'commute',
      to: 'business',
      change: null,
    });
    const bi = compare.calculations.find((c: Json) => c.calculation === 'bi_premium');
    expect(Number(bi.change)).toBeGreaterThan(0);

    // Version 2026.2 (business use 1.20 → 1.25) takes effect on 2026-07-01: the renewal on
    // 2027-01-01 is rated on it; the expiring term stays on 2026.1.
    const admin = await api('admin@atrium.test');
    const { rows } = await server.atrium.database.pool.query(
      `select v.id from lines.product_version v join lines.product p on p.id = v.product_id
        where p.name = 'personal_auto' and v.label = '2026.2'`,
    );
    await json(
      await admin.patch(`/lines/products/personal_auto/versions/${rows[0].id}/status/`, { status: 'published' }),
    );
    // Back-dated before the usage change: both revisions re-rated; the written premium adds up.
    const backDated = await transact({
      policy: Number(issued.policyId),
      type: 'endorsement',
      effective_date: '2026-03-01',
      changes: { 'driver.at_fault_accidents': 0 },
    });
    expect(backDated.status).toBe('in_progress');
    const committed = await json(
      await underwriter.post(`/policies/policy-transactions/${backDated.id}/commit-oos/`, {}),
      202,
    );
    for (let row = committed; row.status !== 'completed';) {
      expect(row.status).not.toBe('failed');
      await new Promise((resolve) => setTimeout(resolve, 50));
      row = await json(await underwriter.get(`/policies/policy-transactions/${backDated.id}/`));
    }
    const [reissued, ownRevision] = await revisions(issued.policyId);
    expect(Number(ownRevision!.annual_premium)).toBeLessThan(1247.81);
    expect(Number(reissued!.annual_premium)).toBeLessThan(Number(endorsedPremium));
    const afterOos = await json(await underwriter.get(`/policies/policies/${issued.policyId}/`));
    expect(reissued!.written_premium).toBe(afterOos.premium.written);
    const reissuedPremium = reissued!.annual_premium as string;

    // A mid-term change stays on the version its term was rated on (2026.1), though 2026.2 is in force.
    const midTerm = await transact({
      policy: Number(issued.policyId),
      type: 'endorsement',
      effective_date: '2026-09-01',
      changes: { 'driver.first_name': 'Samuel' },
    });
    expect(midTerm.result).toMatchObject({ rerated: true, productVersion: '2026.1', annualPremium: reissuedPremium });
    const renewal = await transact({ policy: Number(issued.policyId), type: 'renewal', effective_date: '2027-01-01' });
    expect(renewal).toMatchObject({
      status: 'completed',
      result: { rerated: true, productVersion: '2026.2', expiringPremium: reissuedPremium },
    });
    expect(Number(renewal.result.writtenPremium)).toBeGreaterThan(Number(reissuedPremium));
    const [renewed, expiring] = await revisions(issued.policyId);
    const across = await json(
      await underwriter.get(`/policies/compare-transactions/?from_revision=${expiring!.id}&to_revision=${renewed!.id}`),
    );
    const factor = across.calculations.find((c: Json) => c.calculation === 'usage_relativity');
    expect(factor).toMatchObject({ from: '1.2', to: '1.25' });
    expect(across.not_rated_change).toBe('0.00');
  });

  it('carries the premium of risk data that is not a rating tree, and fails a renewal the engine refuses, with the reason', async () => {
    const underwriter = await api('underwriter@atrium.test');
    const flat = await db().transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: 'q-flat',
        quoteNumber: 'QTE-FLAT',
        productSlug: 'personal_auto',
        productVersionId: null,
        state: 'TX',
        effectiveDate: '2026-01-01',
        expirationDate: '2027-01-01',
        namedInsured: { contactId: null, name: 'Flat Risk' },
        agentContactId: 'CON-AGENT-ALEX',
        agencyContactId: 'CON-AGENCY-HARBOUR',
        premium: '900.00',
        worksheet: null,
        risks: { vehicle: { year: 2020 } },
        billing: null,
        issuedBy: 'underwriter@atrium.test',
      }),
    );
    const refused = await json(
      await underwriter.post('/policies/policy-transactions/', {
        policy: Number(flat.policyId),
        type: 'endorsement',
        effective_date: '2026-03-01',
        changes: { 'vehicle.year': 2021 },
      }),
      400,
    );
    expect(JSON.stringify(refused)).toContain('An endorsement needs the new annual premium.');
    const carried = await transact({ policy: Number(flat.policyId), type: 'renewal', effective_date: '2027-01-01' });
    expect(carried).toMatchObject({ status: 'completed', result: { rerated: false, writtenPremium: '900.00' } });
    expect(carried.result.carriedReason).toContain('not a rating tree');

    // A tree the engine cannot rate (no garaging ZIP): the renewal fails, listed with the engine's reason.
    const broken = await bind(singleDriverTree());
    await server.atrium.database.pool.query(
      `update policies.policy_revision set risks = jsonb_set(risks, '{risk_quotes,0,risk_state,field_answers,garaging_zip}', 'null')
        where policy_id = ${Number(broken.policyId)}`,
    );
    const failed = await transact({ policy: Number(broken.policyId), type: 'renewal', effective_date: '2027-01-01' });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^The renewal could not be re-rated: /);
    const list = await json(await underwriter.get('/policies/failed-renewals/?page=1&size=50'));
    expect(list.results.map((t: Json) => t.error)).toContain(failed.error);
  });
});
