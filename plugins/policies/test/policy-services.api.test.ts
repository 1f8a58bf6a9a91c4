import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import policiesPlugin from '../server/plugin.js';
import { billingService, issuanceService, lookupService } from '../server/services.js';

/** The typed services quote and claims call, in the caller's transaction, on a real database. */
describe('policies services', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, contactsPlugin, policiesPlugin] });
  });
  afterAll(() => server?.close());

  const db = () => server.atrium.database.db;
  const sql = async (text: string) => (await server.atrium.database.pool.query(text)).rows;

  const input = {
    quoteId: 'Q-1',
    quoteNumber: 'QTE-0001',
    productSlug: 'homeowners',
    productVersionId: null,
    state: 'NY',
    effectiveDate: '2026-01-01',
    expirationDate: '2027-01-01',
    namedInsured: { contactId: 'CON-1001', name: 'Zelda Service' },
    agentContactId: 'CON-AGENT-ALEX',
    agencyContactId: 'CON-AGENCY-HARBOUR',
    premium: '1000.01',
    worksheet: {
      root: {
        calculations: [
          { item: 'dwelling', value: '700.01', inputs: [{ kind: 'limit', name: 'dwelling', value: '300000' }] },
          { item: 'liability', value: '300', inputs: [{ kind: 'deductible', name: 'liability', value: '500' }] },
        ],
        children: [],
      },
    },
    risks: { dwelling: { year_built: 1990 } },
    billing: { scheduleId: 'quarterly', paymentMethodId: 'pm-1' },
    issuedBy: 'underwriter@atrium.test',
  };

  it('issues policy, term, revision, transaction and installments together, or nothing', async () => {
    const issued = await db().transaction((tx) => issuanceService().issuePolicy(tx, input));
    expect(issued).toMatchObject({ policyNumber: expect.stringMatching(/^HO-\d+$/), revisionNumber: 1 });
    const rows = await sql(
      `select amount, fee from policies.installment where policy_id = ${issued.policyId} order by number`,
    );
    expect(rows.map((r) => r.amount)).toEqual(['250.00', '250.00', '250.00', '250.01']);
    expect(rows.map((r) => r.fee)).toEqual(['0.00', '3.00', '3.00', '3.00']);
    const [tx] = await sql(`select type, status from policies.policy_transaction where policy_id = ${issued.policyId}`);
    expect(tx).toEqual({ type: 'new_business', status: 'completed' });

    // The caller's rollback takes the policy with it.
    const before = (await sql('select count(*)::int as n from policies.policy'))[0]!.n;
    await expect(
      db().transaction(async (tx) => {
        await issuanceService().issuePolicy(tx, { ...input, quoteId: 'Q-2' });
        throw new Error('quote write failed');
      }),
    ).rejects.toThrow('quote write failed');
    expect((await sql('select count(*)::int as n from policies.policy'))[0]!.n).toBe(before);

    const lookup = lookupService();
    const found = await lookup.searchPolicies(db(), { search: 'zelda', limit: 5 });
    expect(found.map((p) => p.policyNumber)).toContain(issued.policyNumber);
    const atDate = await lookup.policyAtDate(db(), issued.policyId, '2026-06-01');
    expect(atDate?.coverages).toEqual([
      { name: 'dwelling', limit: '300000', deductible: null, premium: '700.01' },
      { name: 'liability', limit: null, deductible: '500', premium: '300.00' },
    ]);
    expect(await lookup.policyAtDate(db(), issued.policyId, '2027-01-01')).toBeNull();

    // A producer's book: Alex's search finds it, Noor's and another agency's do not.
    const mine = await lookup.searchPolicies(db(), {
      search: 'zelda',
      limit: 5,
      producer: { agentContactId: 'CON-AGENT-ALEX' },
    });
    expect(mine.map((p) => p.policyNumber)).toEqual([issued.policyNumber]);
    expect(
      await lookup.searchPolicies(db(), { search: 'zelda', limit: 5, producer: { agentContactId: 'CON-AGENT-NOOR' } }),
    ).toEqual([]);
    expect(
      await lookup.searchPolicies(db(), {
        search: 'zelda',
        limit: 5,
        producer: { agencyContactId: 'CON-AGENCY-NORTHGATE' },
      }),
    ).toEqual([]);
    expect(await lookup.getPolicy(db(), issued.policyId)).toMatchObject({
      policyNumber: issued.policyNumber,
      termEffectiveDate: '2026-01-01',
      termExpirationDate: '2027-01-01',
      namedInsured: { contactId: 'CON-1001', name: 'Zelda Service' },
    });
    expect(await lookup.getPolicy(db(), '999999')).toBeNull();
    expect(await lookup.getPolicy(db(), 'x')).toBeNull();
    expect(await lookup.listRevisions(db(), issued.policyId)).toEqual([
      {
        revisionId: issued.revisionId,
        revisionNumber: 1,
        revisionDate: '2026-01-01',
        policyStatus: 'Active',
        description: expect.any(String),
        annualPremium: '1000.01',
        termNumber: 1,
        termEffectiveDate: '2026-01-01',
        termExpirationDate: '2027-01-01',
      },
    ]);
    expect(await lookup.listRevisions(db(), '999999')).toEqual([]);
  });

  it('previews installments per schedule: factors sum to 1, rounding on the last, fees', async () => {
    const billing = billingService();
    const schedules = await billing.listSchedules(db(), { productSlug: 'homeowners' });
    expect(schedules.map((s) => s.id)).toEqual(['annual', 'semi_annual', 'quarterly', 'monthly']);
    const [monthly, annual] = await billing.previewInstallments(db(), {
      scheduleIds: ['monthly', 'annual'],
      effectiveDate: '2026-01-31',
      premium: '1234.57',
      paymentMethod: 'ach',
    });
    expect(monthly!.installments).toHaveLength(11);
    expect(monthly!.installments[0]).toMatchObject({ amount: '246.91', fee: '0.00', dueDate: '2026-01-31' });
    expect(monthly!.installments[1]).toMatchObject({ amount: '98.77', fee: '5.00', dueDate: '2026-02-28' });
    expect(monthly!.installments[10]!.amount).toBe('98.73');
    expect(monthly!.total).toBe('1284.57');
    expect(annual).toMatchObject({ total: '1234.57', installments: [{ amount: '1234.57', fee: '0.00' }] });
    await expect(
      billing.previewInstallments(db(), {
        scheduleIds: ['nope'],
        effectiveDate: '2026-01-01',
        premium: '1',
        paymentMethod: null,
      }),
    ).rejects.toThrow(/does not exist/);
  });
});
