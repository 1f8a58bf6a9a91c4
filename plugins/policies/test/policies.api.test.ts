import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import policiesPlugin from '../server/plugin.js';
import { addDays } from '../server/premium.js';
import { issuanceService } from '../server/services.js';

type Json = Record<string, any>;

/** The policies API as the demo users: search and record scope, transactions as jobs, known answers, billing, gateway calls. */
describe('policies API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, contactsPlugin, policiesPlugin] });
  });
  afterAll(() => server?.close());

  const api = (user: string) => as(server, user, { base: '/api' });
  const json = async (response: Response, status = 200): Promise<Json> => {
    const body = await response.text();
    expect(response.status, body).toBe(status);
    return body ? JSON.parse(body) : {};
  };
  const issue = (premium: string, effectiveDate: string, productSlug = 'personal_auto') =>
    server.atrium.database.db.transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: `q-${premium}`,
        quoteNumber: `QTE-${premium}`,
        productSlug,
        productVersionId: null,
        state: 'IL',
        effectiveDate,
        expirationDate: `${Number(effectiveDate.slice(0, 4)) + 1}${effectiveDate.slice(4)}`,
        namedInsured: { contactId: null, name: `Known Answer ${premium}` },
        agentContactId: 'CON-AGENT-NOOR',
        agencyContactId: 'CON-AGENCY-NORTHGATE',
        premium,
        worksheet: null,
        risks: { vehicle: { year: 2020 } },
        billing: { scheduleId: 'quarterly', paymentMethodId: null },
        issuedBy: 'underwriter@atrium.test',
      }),
    );
  /** Posts a transaction, waits for its job, returns it. */
  const transact = async (body: Json, user = 'underwriter@atrium.test') => {
    const caller = await api(user);
    const started = await json(await caller.post('/policies/policy-transactions/', body), 202);
    expect(started.status).toBe('initiated');
    for (;;) {
      const row = await json(await caller.get(`/policies/policy-transactions/${started.id}/`));
      if (row.status === 'completed' || row.status === 'failed') return row;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('searches policies by number or primary insured; agents and agencies see only their own book', async () => {
    const underwriter = await api('underwriter@atrium.test');
    const all = await json(await underwriter.get('/policies/policies/?page_size=100'));
    expect(all.count).toBeGreaterThanOrEqual(10);
    expect(new Set(all.results.map((p: Json) => p.product))).toEqual(new Set(['homeowners', 'personal_auto']));
    expect(new Set(all.results.map((p: Json) => p.status))).toEqual(new Set(['In Force', 'Canceled']));
    expect(all.results.some((p: Json) => p.cancellation_pending)).toBe(true);
    const dates = all.results.map((p: Json) => p.date_added);
    expect(dates).toEqual([...dates].sort().reverse());

    const byName = await json(await underwriter.get('/policies/policies/?search=avery&search_type=primary_insured'));
    expect(byName.results.map((p: Json) => p.primary_insured)).toEqual(['Avery Garcia']);
    const number = byName.results[0].policy_number as string;
    const byNumber = await json(await underwriter.get(`/policies/policies/?search=${number}&search_type=number`));
    expect(byNumber.results).toHaveLength(1);

    const agent = await api('agent@agency.test');
    const own = await json(await agent.get('/policies/policies/?page_size=100'));
    expect(own.count).toBeGreaterThan(0);
    expect(own.count).toBeLessThan(all.count);
    const ownIds = new Set(own.results.map((p: Json) => p.id));
    const foreign = all.results.find((p: Json) => !ownIds.has(p.id));
    expect((await agent.get(`/policies/policies/${foreign.id}/`)).status).toBe(404);
    expect((await agent.get(`/policies/revisions/?filter[policy_id]=${foreign.id}`)).status).toBe(200);
    expect((await json(await agent.get(`/policies/revisions/?filter[policy_id]=${foreign.id}`))).count).toBe(0);
    const agency = await api('agency@agency.test');
    const agencyBook = await json(await agency.get('/policies/policies/?page_size=100'));
    expect(agencyBook.count).toBeGreaterThan(own.count);
    expect(agencyBook.count).toBeLessThan(all.count);
    // Renewing next (My work's agent widget): in force, the earliest end of term first, own book only.
    const renewing = await json(await agent.get('/policies/policies/?status=In%20Force&ordering=expiration_date'));
    expect(renewing.results.length).toBeGreaterThan(1);
    expect(renewing.results.every((p: Json) => p.status === 'In Force' && ownIds.has(p.id))).toBe(true);
    const ends = renewing.results.map((p: Json) => p.expiration_date);
    expect(ends).toEqual([...ends].sort());
    const latest = await json(await agent.get('/policies/policies/?status=In%20Force&ordering=-expiration_date'));
    expect(latest.results[0].expiration_date >= ends[ends.length - 1]).toBe(true);
    // Agents read; they do not transact.
    const denied = await agent.post('/policies/policy-transactions/', {
      policy: [...ownIds][0],
      type: 'cancellation',
      effective_date: '2026-01-01',
      method: 'flat',
    });
    expect(denied.status).toBe(403);
    expect((await underwriter.get('/policies/policies/?page_size=1000')).status).toBe(400);
  });

  it('reproduces the known answers through the API: $2,767.12 earned, $265.07 short-rate return', async () => {
    const effective = '2025-01-01';
    const earned = await issue('3000.00', effective);
    const endorsement = await transact({
      policy: Number(earned.policyId),
      type: 'endorsement',
      effective_date: addDays(effective, 280),
      annual_premium: '2000.00',
      changes: { 'vehicle.year': 2018 },
    });
    expect(endorsement).toMatchObject({ status: 'completed', result: { writtenPremiumDelta: '-232.88' } });
    // Every quarterly installment fell due before day 280: the decrease is credited on the day.
    expect(endorsement.result).toMatchObject({ billingChange: '-232.88', spreadOver: 0 });
    const underwriter = await api('underwriter@atrium.test');
    const policy = await json(await underwriter.get(`/policies/policies/${earned.policyId}/`));
    // The term is over: everything written is earned.
    expect(policy.premium).toMatchObject({ written: '2767.12', earned: '2767.12', unearned: '0.00', term_days: 365 });

    const cancelled = await issue('500.00', effective);
    const cancellation = await transact({
      policy: Number(cancelled.policyId),
      type: 'cancellation',
      effective_date: addDays(effective, 150),
      method: 'short_rate',
      reason: 'Insured request',
    });
    expect(cancellation.result).toMatchObject({ daysInForce: 150, proRataReturn: '294.52', returnPremium: '265.07' });
    const after = await json(await underwriter.get(`/policies/policies/${cancelled.policyId}/`));
    expect(after.status).toBe('Canceled');
    const billing = await json(
      await underwriter.post('/v2/payments/retrieve_policy_billing_information', {
        policy_id: Number(cancelled.policyId),
      }),
    );
    // Quarterly: the installments due on or after the cancellation are canceled; what the two billed
    // ($250.00) exceeds the written premium left ($500.00 − $265.07 = $234.93) is credited that day.
    expect(billing.installments.map((i: Json) => [i.status, i.amount])).toEqual([
      ['open', '125.00'],
      ['open', '125.00'],
      ['canceled', '125.00'],
      ['canceled', '125.00'],
      ['open', '-15.07'],
    ]);
    expect(billing.installments[4].due_date).toBe(addDays(effective, 150));
    expect(cancellation.result).toMatchObject({ billingChange: '-15.07', spreadOver: 0 });
    // Billed: the premium left plus the $3 installment fee of the second quarter.
    expect(billing.total_billed).toBe('237.93');

    // Reinstated: the canceled installments are due again and the credit goes.
    const reinstated = await transact({
      policy: Number(cancelled.policyId),
      type: 'reinstatement',
      effective_date: addDays(effective, 160),
    });
    expect(reinstated.status).toBe('completed');
    const rebilled = await json(
      await underwriter.post('/v2/payments/retrieve_policy_billing_information', {
        policy_id: Number(cancelled.policyId),
      }),
    );
    expect(rebilled.installments.map((i: Json) => i.status)).toEqual(['open', 'open', 'open', 'open', 'canceled']);
    expect(rebilled.total_billed).toBe('509.00');
  });

  it('holds an out-of-sequence endorsement for review with its conflicts, then carries it into the later revision', async () => {
    const effective = '2025-01-01';
    const issued = await issue('3000.00', effective);
    const policyId = Number(issued.policyId);
    const later = await transact({
      policy: policyId,
      type: 'endorsement',
      effective_date: addDays(effective, 280),
      annual_premium: '2000.00',
      changes: { 'vehicle.year': 2018 },
    });
    expect(later.status).toBe('completed');
    const underwriter = await api('underwriter@atrium.test');
    const started = await json(
      await underwriter.post('/policies/policy-transactions/', {
        policy: policyId,
        type: 'endorsement',
        effective_date: addDays(effective, 200),
        annual_premium: '2600.00',
        changes: { 'vehicle.year': 2019, 'vehicle.color': 'red' },
      }),
      202,
    );
    let review: Json = started;
    while (review.oos_status !== 'conflicts') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      review = await json(await underwriter.get(`/policies/policy-transactions/${started.id}/`));
      expect(review.status).not.toBe('failed');
    }
    expect(review.status).toBe('in_progress');
    expect(review.result.conflicts).toEqual([
      expect.objectContaining({ field: 'vehicle.year', laterValue: 2018, outOfSequenceValue: 2019, kept: 'later' }),
    ]);
    expect((await json(await underwriter.get(`/policies/policies/${policyId}/`))).in_progress_oos_transaction).toBe(
      started.id,
    );
    // Nothing else may start while it waits.
    await json(
      await underwriter.post('/policies/policy-transactions/', {
        policy: policyId,
        type: 'renewal',
        effective_date: '2026-01-01',
      }),
      409,
    );
    await json(await underwriter.post(`/policies/policy-transactions/${started.id}/commit-oos/`), 202);
    for (;;) {
      const row = await json(await underwriter.get(`/policies/policy-transactions/${started.id}/`));
      if (row.status === 'completed') break;
      expect(row.status).not.toBe('failed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const revisions = await json(await underwriter.get(`/policies/revisions/?filter[policy_id]=${policyId}`));
    expect(revisions.results.filter((r: Json) => r.revision_state === 'superseded')).toHaveLength(1);
    const committed = revisions.results.filter((r: Json) => r.revision_state === 'committed');
    expect(committed.map((r: Json) => [r.revision_date, r.annual_premium])).toEqual([
      [addDays(effective, 280), '1600.00'],
      [addDays(effective, 200), '2600.00'],
      [effective, '3000.00'],
    ]);
    const risk = await json(await underwriter.get(`/policies/risk-data/?revision_id=${committed[0].id}`));
    expect(risk.risks.vehicle).toEqual({ year: 2018, color: 'red' });
    // 3000 × 200 + 2600 × 80 + 1600 × 85, ÷ 365.
    expect((await json(await underwriter.get(`/policies/policies/${policyId}/`))).premium.written).toBe('2586.30');
  });

  it('endorses, cancels, reinstates and renews as jobs; a failed one is dismissed with a reason', async () => {
    const issued = await issue('1200.00', '2026-01-15', 'homeowners');
    const policyId = Number(issued.policyId);
    const underwriter = await api('underwriter@atrium.test');
    const endorsed = await transact({
      policy: policyId,
      type: 'endorsement',
      effective_date: '2026-03-01',
      annual_premium: '1300.00',
      changes: { 'vehicle.year': 2021 },
    });
    expect(endorsed.status).toBe('completed');
    const cancel = await transact({
      policy: policyId,
      type: 'cancellation',
      effective_date: '2026-06-01',
      method: 'pro_rata',
    });
    expect(cancel.auto_bind).toBe(true);
    const refused = await transact({
      policy: policyId,
      type: 'endorsement',
      effective_date: '2026-07-01',
      annual_premium: '1.00',
    });
    expect(refused).toMatchObject({
      status: 'failed',
      error: 'A canceled policy cannot be endorsed; reinstate it first.',
    });
    expect(
      await json(
        await underwriter.patch(`/policies/policy-transactions/${refused.id}/`, { reason_dismissed: '' }),
        400,
      ),
    ).toBeTruthy();
    const dismissed = await json(
      await underwriter.patch(`/policies/policy-transactions/${refused.id}/`, {
        reason_dismissed: 'Entered by mistake',
      }),
    );
    expect(dismissed.reason_dismissed).toBe('Entered by mistake');
    await json(await underwriter.patch(`/policies/policy-transactions/${cancel.id}/`, { reason_dismissed: 'x' }), 409);

    const reinstated = await transact({ policy: policyId, type: 'reinstatement', effective_date: '2026-06-01' });
    expect(reinstated.status).toBe('completed');
    const info = await json(
      await underwriter.post('/gateway?file=policies.reinstatement&method=retrieveReinstatementInfo', { policyId }),
    );
    expect(info.canReinstate).toBe(false);
    const renewed = await transact({ policy: policyId, type: 'renewal', effective_date: '2027-01-15' });
    expect(renewed.status).toBe('completed');
    const view = await json(await underwriter.get(`/policies/policies/${policyId}/`));
    expect(view.status).toBe('In Force');
    expect(view.terms.map((t: Json) => [t.effective_date, t.expiration_date])).toEqual([
      ['2026-01-15', '2027-01-15'],
      ['2027-01-15', '2028-01-15'],
    ]);
    const revisions = await json(await underwriter.get(`/policies/revisions/?filter[policy_id]=${policyId}`));
    expect(revisions.results.map((r: Json) => r.policy_status)).toEqual([
      'Active',
      'Active',
      'Canceled - Pro Rata',
      'Active',
      'Active',
    ]);
    const [renewal, , , endorsement, first] = revisions.results;
    expect(renewal.policy_term.number).toBe(2);
    const compared = await json(
      await underwriter.get(`/policies/compare-transactions/?from_revision=${first.id}&to_revision=${endorsement.id}`),
    );
    expect(compared).toMatchObject({
      annual_premium_change: '100.00',
      changes: [{ field: 'Vehicle › Year', from: '2020', to: '2021' }],
    });
    const transactions = await json(
      await underwriter.get(`/policies/policy-transactions/?filter[policy_id]=${policyId}`),
    );
    expect(transactions.results.map((t: Json) => t.type)).toEqual([
      'renewal',
      'reinstatement',
      'endorsement',
      'cancellation',
      'endorsement',
      'new_business',
    ]);

    const status = await json(
      await underwriter.post('/gateway?file=policies.renewal&method=retrieveRenewalStatus', { policyId }),
    );
    expect(status).toMatchObject({ status: 'renewed', renewedTerms: 1 });
    const failed = await json(await underwriter.get('/policies/failed-renewals/?page=1&size=10&sort=-date_created'));
    expect(failed.results.map((t: Json) => t.error)).toContain(
      'No product version of Personal Auto is in force on the renewal date.',
    );
    expect(
      (
        await json(
          await underwriter.post('/policies/policy-transactions/', {
            policy: policyId,
            type: 'cancellation',
            effective_date: '2027-02-01',
          }),
          400,
        )
      ).detail ?? '',
    ).toContain('Choose how to cancel');
  });

  it('renews every in-force policy expiring by a date as a run, with its progress', async () => {
    const underwriter = await api('underwriter@atrium.test');
    const due = (
      await server.atrium.database.pool.query(
        `select p.id from policies.policy p where p.status = 'In Force'
          and (select max(t.expiration_date) from policies.policy_term t where t.policy_id = p.id) <= current_date + 40`,
      )
    ).rows;
    expect(due.length).toBeGreaterThan(0);
    const until = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const run = await json(await underwriter.post('/policies/renewal-runs/', { expiring_by: until }), 202);
    expect(run.total).toBe(due.length);
    let progress: Json = {};
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      progress = await json(
        await underwriter.post('/policies/renewal-runs/progress/', { transaction_ids: run.transaction_ids }),
      );
    } while (progress.pending > 0);
    expect(progress).toMatchObject({ total: due.length, completed: due.length, failed: 0 });
    // Each has its next term now.
    const terms = (
      await server.atrium.database.pool.query(
        `select count(*)::int as n from policies.policy_term where policy_id = any($1::int[]) and number > 1`,
        [due.map((d) => d.id)],
      )
    ).rows[0].n;
    expect(terms).toBeGreaterThanOrEqual(due.length);
    expect(
      (await (await api('agent@agency.test')).post('/policies/renewal-runs/', { expiring_by: until })).status,
    ).toBe(403);
  });

  it('answers the screen flows, risk data, contacts, invoices, linked policies and lookups', async () => {
    const underwriter = await api('underwriter@atrium.test');
    const [first] = (await json(await underwriter.get('/policies/policies/?search=avery'))).results;
    const flows = await json(await underwriter.get(`/policies/policy-info-screen-flows/?policy_id=${first.id}`));
    expect(flows.screens.map((s: Json) => s.label)).toEqual([
      'Dwelling',
      'Coverages',
      'Billing',
      'Transactions',
      'Linked policies',
      'Documents',
    ]);
    const formatted = await json(await underwriter.get(`/policies/formatted-risk/?policy_id=${first.id}`));
    expect(formatted.tabs[0].rows).toContainEqual({ label: 'Roof type', value: 'Metal' });
    expect(formatted.coverages.map((c: Json) => c.name)).toEqual([
      'dwelling',
      'other_structures',
      'personal_property',
      'liability',
    ]);
    expect(
      (await json(await underwriter.get(`/policies/risk-data/?policy_id=${first.id}`))).risks.dwelling,
    ).toBeTruthy();
    const contacts = await json(await underwriter.get(`/policies/revisions-contacts/?policy_id=${first.id}`));
    expect(contacts.results[0]).toMatchObject({ name: 'Avery Garcia', is_named_insured: true });
    expect((await json(await underwriter.get('/policies/contacts/CON-1001/'))).name).toBe('Avery Garcia');
    const invoices = await json(await underwriter.post('/v2/accounting/get_invoices', { policy_id: first.id }));
    expect(invoices.invoices[0]).toMatchObject({ status: 'paid' });
    expect((await underwriter.post('/v2/accounting/get_invoices', {})).status).toBe(400);
    const dec = await json(await underwriter.get(`/policies/get-dec-file-id/?policy_id=${first.id}`));
    expect(dec).toMatchObject({
      file_id: null,
      declaration: true,
      label: 'Declaration',
      url: null,
      detail: 'No declaration has been produced for this revision.',
    });

    const linkedTo = await json(await underwriter.get('/policies/policies/?search=harper'));
    const linked = await json(
      await underwriter.post('/gateway?file=policies.linked&method=retrieveLinkedPolicies', {
        policyId: linkedTo.results[0].id,
      }),
    );
    expect(linked.policies.map((p: Json) => p.primaryInsured)).toEqual(['Avery Garcia']);
    const removed = await json(
      await underwriter.post('/gateway?file=policies.linked&method=removeLinkedPolicy', {
        policyId: linkedTo.results[0].id,
        linkedPolicyId: first.id,
      }),
    );
    expect(removed.message).toBe('Policy link removed successfully');
    const again = await underwriter.post('/gateway?file=policies.linked&method=removeLinkedPolicy', {
      policyId: linkedTo.results[0].id,
      linkedPolicyId: first.id,
    });
    expect(JSON.stringify(await again.json())).toContain('The system was unable to remove the linked policy');

    const pending = await json(await underwriter.get('/policies/policies/?search=morgan'));
    const cancellation = await json(
      await underwriter.post('/gateway?file=policies.cancellation&method=retrieveCancellationInfo', {
        policyId: pending.results[0].id,
      }),
    );
    expect(cancellation.cancellationPendingNotice).toMatchObject({ reason: 'Non-payment of premium' });
    expect(cancellation.reasons.length).toBeGreaterThan(0);

    const types = await json(await underwriter.get('/policies/policy-types/'));
    expect(types.results.map((t: Json) => t.name)).toEqual(['Homeowners', 'Personal Auto']);
    const created = await json(await underwriter.post('/policies/policy-statuses/', { name: 'Rewritten' }), 201);
    await json(await underwriter.post('/policies/policy-statuses/', { name: 'Rewritten' }), 409);
    await json(await underwriter.delete(`/policies/policy-statuses/${created.id}/`), 204);
    expect((await (await api('agent@agency.test')).post('/policies/policy-types/', { name: 'X' })).status).toBe(403);
  });
});
