import { eq } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { addDays, addMonths } from './premium.js';
import { issuePolicy } from './services.js';
import { invoice, installment, linkedPolicy, payment, policy, policyTransaction } from './tables.js';
import { applyNow } from './transactions.js';

/** The contacts demo's producers and insureds (plugins/contacts/server/seed.ts: person(i), producer i % 3). */
const PRODUCERS = [
  { agent: 'CON-AGENT-ALEX', agency: 'CON-AGENCY-HARBOUR' },
  { agent: 'CON-AGENT-BLAKE', agency: 'CON-AGENCY-HARBOUR' },
  { agent: 'CON-AGENT-NOOR', agency: 'CON-AGENCY-NORTHGATE' },
] as const;
const FIRST = ['Avery', 'Jordan', 'Riley', 'Taylor', 'Morgan', 'Quinn', 'Harper', 'Rowan', 'Emerson', 'Sawyer'];
const LAST = ['Nguyen', 'Garcia', 'Okafor', 'Schmidt', 'Rossi', 'Kowalski', 'Haddad', 'Silva', 'Lindqvist', 'Patel'];
const person = (i: number) => `${FIRST[i % 10]} ${LAST[(i * 3 + 1) % 10]}`;

const HO_SPLIT = [
  ['dwelling', '0.55', '350000', '1000'],
  ['other_structures', '0.05', '35000', '1000'],
  ['personal_property', '0.20', '175000', '1000'],
  ['liability', '0.20', '300000', null],
] as const;
const PA_SPLIT = [
  ['bodily_injury', '0.40', '100000', null],
  ['property_damage', '0.20', '50000', null],
  ['collision', '0.25', null, '500'],
  ['comprehensive', '0.15', null, '250'],
] as const;

/** A rating worksheet shaped like the rating engine's: one calculation per coverage item. */
export function demoWorksheet(product: string, premium: string, factor = '1.00') {
  const split = product === 'homeowners' ? HO_SPLIT : PA_SPLIT;
  let left = Number(premium) * 100;
  const calculations = split.map(([item, share, limit, deductible], i) => {
    const cents = i === split.length - 1 ? left : Math.round(Number(premium) * 100 * Number(share));
    left -= cents;
    return {
      name: `${item}_premium`,
      item,
      formula: `base_rate * ${share} * territory_factor`,
      inputs: [
        ...(limit ? [{ kind: 'limit', name: item, value: limit }] : []),
        ...(deductible ? [{ kind: 'deductible', name: item, value: deductible }] : []),
        { kind: 'field', name: 'territory_factor', value: factor },
      ],
      tables: [],
      unrounded: (cents / 100).toFixed(2),
      value: (cents / 100).toFixed(2),
    };
  });
  return {
    product,
    term: {},
    root: {
      type: product === 'homeowners' ? 'dwelling' : 'vehicle',
      path: product === 'homeowners' ? 'dwelling' : 'vehicle',
      computedFields: [],
      calculations,
      premium,
      children: [],
    },
  };
}

const risksFor = (product: string, i: number) =>
  product === 'homeowners'
    ? {
        dwelling: {
          address: `${100 + i} Main St`,
          year_built: 1960 + i * 5,
          construction: i % 2 ? 'Frame' : 'Masonry',
          roof_type: i % 3 ? 'Asphalt shingle' : 'Metal',
          protection_class: 3 + (i % 4),
        },
      }
    : {
        vehicle: {
          year: 2015 + i,
          make: i % 2 ? 'Honda' : 'Toyota',
          model: i % 2 ? 'Civic' : 'Corolla',
          use: 'Commute',
        },
        driver: { name: person(i), license_state: 'NY', years_licensed: 5 + i },
      };

/**
 * The demo book: ten policies over both demo lines (Homeowners, Personal Auto) for the contacts
 * demo's insureds, written by the demo agents (Alex, Blake, Noor) — in force, endorsed, canceled
 * short rate and pro rata, pending cancellation, renewed, one with an out-of-sequence endorsement
 * and one whose renewal failed. Dates are relative to the day the database is seeded.
 */
export async function seedDemoPolicies(tx: Queryable): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const plan: {
    product: 'homeowners' | 'personal_auto';
    premium: string;
    startedDaysAgo: number;
    schedule: string;
    story?: 'endorsed' | 'short_rate' | 'pro_rata' | 'pending' | 'renewed' | 'failed_renewal' | 'oos';
  }[] = [
    { product: 'homeowners', premium: '1450.00', startedDaysAgo: 120, schedule: 'quarterly', story: 'endorsed' },
    { product: 'personal_auto', premium: '980.00', startedDaysAgo: 60, schedule: 'monthly' },
    { product: 'homeowners', premium: '2100.00', startedDaysAgo: 200, schedule: 'annual' },
    { product: 'personal_auto', premium: '500.00', startedDaysAgo: 170, schedule: 'semi_annual', story: 'short_rate' },
    { product: 'homeowners', premium: '1675.00', startedDaysAgo: 90, schedule: 'quarterly', story: 'pending' },
    { product: 'personal_auto', premium: '1120.00', startedDaysAgo: 400, schedule: 'annual', story: 'renewed' },
    { product: 'homeowners', premium: '1890.00', startedDaysAgo: 380, schedule: 'semi_annual', story: 'renewed' },
    { product: 'personal_auto', premium: '760.00', startedDaysAgo: 340, schedule: 'annual', story: 'failed_renewal' },
    { product: 'homeowners', premium: '1320.00', startedDaysAgo: 150, schedule: 'annual', story: 'pro_rata' },
    { product: 'personal_auto', premium: '3000.00', startedDaysAgo: 300, schedule: 'quarterly', story: 'oos' },
  ];
  const issued: number[] = [];
  for (const [i, entry] of plan.entries()) {
    const producer = PRODUCERS[i % 3]!;
    const effective = addDays(today, -entry.startedDaysAgo);
    const result = await issuePolicy(tx, {
      quoteId: `demo-quote-${i + 1}`,
      quoteNumber: `QTE-${String(9001 + i)}`,
      productSlug: entry.product,
      productVersionId: null,
      state: entry.product === 'homeowners' ? 'NY' : 'IL',
      effectiveDate: effective,
      expirationDate: addMonths(effective, 12),
      namedInsured: { contactId: `CON-${1001 + i}`, name: person(i) },
      agentContactId: producer.agent,
      agencyContactId: producer.agency,
      premium: entry.premium,
      worksheet: demoWorksheet(entry.product, entry.premium),
      risks: risksFor(entry.product, i),
      billing: { scheduleId: entry.schedule, paymentMethodId: null },
      issuedBy: 'underwriter@atrium.test',
    });
    const id = Number(result.policyId);
    issued.push(id);
    // Older policies were created earlier: the search lists newest first.
    await tx
      .update(policy)
      .set({ createdAt: new Date(`${effective}T12:00:00Z`) })
      .where(eq(policy.id, id));
    const by = 'underwriter@atrium.test';
    // The first installment is invoiced and paid.
    const [first] = await tx.select().from(installment).where(eq(installment.policyId, id)).limit(1);
    if (first) {
      const [inv] = await tx
        .insert(invoice)
        .values({
          policyId: id,
          number: `INV-${5001 + i}`,
          invoiceDate: addDays(effective, -14),
          dueDate: effective,
          amount: first.amount,
          status: 'paid',
          description: 'First installment',
        })
        .returning();
      await tx.update(installment).set({ status: 'paid', invoiceId: inv!.id }).where(eq(installment.id, first.id));
      await tx.insert(payment).values({
        policyId: id,
        invoiceId: inv!.id,
        receivedOn: addDays(effective, -3),
        amount: first.amount,
        method: 'ach',
        reference: `ACH-${7001 + i}`,
      });
    }
    const endorsed = (premium: string, daysAfter: number, description: string, changes: Record<string, unknown>) =>
      applyNow(tx, {
        policyId: id,
        type: 'endorsement',
        effectiveDate: addDays(effective, daysAfter),
        description,
        // The demo's out-of-sequence endorsement was reviewed and committed.
        input: { annualPremium: premium, changes, confirmOos: true },
        username: by,
      });
    switch (entry.story) {
      case 'endorsed':
        await endorsed('1595.00', 45, 'Roof replaced, water backup added', { 'dwelling.roof_type': 'Metal' });
        break;
      case 'short_rate':
        await applyNow(tx, {
          policyId: id,
          type: 'cancellation',
          effectiveDate: addDays(effective, 150),
          input: { method: 'short_rate', reason: 'Insured request' },
          username: by,
        });
        break;
      case 'pro_rata':
        await applyNow(tx, {
          policyId: id,
          type: 'cancellation',
          effectiveDate: addDays(effective, 100),
          input: { method: 'pro_rata', reason: 'Underwriting reasons' },
          username: by,
        });
        break;
      case 'pending':
        await tx
          .update(policy)
          .set({
            cancellationPending: true,
            cancellationPendingDate: addDays(today, 10),
            cancellationPendingReason: 'Non-payment of premium',
          })
          .where(eq(policy.id, id));
        break;
      case 'renewed':
        await applyNow(tx, {
          policyId: id,
          type: 'renewal',
          effectiveDate: addMonths(effective, 12),
          description: 'Renewal',
          input: {},
          username: 'system',
        });
        break;
      case 'failed_renewal':
        await tx.insert(policyTransaction).values({
          policyId: id,
          type: 'renewal',
          effectiveDate: addMonths(effective, 12),
          description: 'Renewal',
          status: 'failed',
          error: 'No product version of Personal Auto is in force on the renewal date.',
          autoBind: true,
          username: 'system',
        });
        break;
      case 'oos':
        // A mid-term change at day 280, then a back-dated one at day 200 (out of sequence).
        await endorsed('2000.00', 280, 'Second vehicle removed', { 'vehicle.use': 'Pleasure' });
        await endorsed('2600.00', 200, 'Driver added (back-dated)', { 'driver.years_licensed': 2 });
        break;
    }
  }
  // The renewed homeowners policy and its insured's auto policy are linked.
  await tx.insert(linkedPolicy).values([{ policyId: issued[6]!, linkedPolicyId: issued[0]! }]);
}
