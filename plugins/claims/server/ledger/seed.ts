import { and, asc, eq, ne } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { claim, exposure } from '../core/tables.js';
import { parseMoney } from './money.js';
import { requestTransaction, voidTransaction, type Actor, type TransactionRequest } from './posting-service.js';
import { authorityLimit, payee, payor } from './tables.js';

/**
 * Demo accounting, called by the claims seed after its claims and exposures exist: authority limits
 * for the Claims Adjuster role (payments 5000.00 a transaction, 25000.00 a coverage, 50000.00 a
 * claim; reserves 25000.00 / 50000.00 / 100000.00), payees and payors, and for every claim that is
 * not a draft: reserves on each exposure, payments on most, a final payment, a void and salvage or
 * subrogation recoveries on some. Everything goes through the posting service, so the demo ledger
 * obeys the same rules as one built through the API. Amounts are derived from ids: the same
 * database always gets the same demo.
 */
export const DEMO_ADJUSTER_LIMITS = {
  payment: { perTransaction: '5000.00', perCoverage: '25000.00', perClaim: '50000.00' },
  reserve: { perTransaction: '25000.00', perCoverage: '50000.00', perClaim: '100000.00' },
} as const;

export const DEMO_SUPERVISOR_LIMITS = {
  payment: { perTransaction: '25000.00', perCoverage: '50000.00', perClaim: '100000.00' },
  reserve: { perTransaction: '50000.00', perCoverage: '100000.00', perClaim: '200000.00' },
} as const;

const SEED_ACTOR: Actor = { username: 'adjuster@atrium.test', effectiveRole: 'Claims Adjuster', principal: null };

/** The seed posts as the demo adjuster without authority checks (it stands in for history). */
const post = (tx: Queryable, request: TransactionRequest) => requestTransaction(tx, SEED_ACTOR, request, true);

export async function seedLedger(tx: Queryable): Promise<void> {
  for (const kind of ['payment', 'reserve'] as const) {
    await tx
      .insert(authorityLimit)
      .values({ subjectType: 'role', subject: 'Claims Adjuster', kind, ...DEMO_ADJUSTER_LIMITS[kind] })
      .onConflictDoNothing();
  }
  // The demo Claims Supervisor (supervisor@atrium.test) approves payments up to 25,000.00.
  for (const kind of ['payment', 'reserve'] as const) {
    await tx
      .insert(authorityLimit)
      .values({ subjectType: 'role', subject: 'Claims Supervisor', kind, ...DEMO_SUPERVISOR_LIMITS[kind] })
      .onConflictDoNothing();
  }
  const payees = await tx
    .insert(payee)
    .values([
      {
        name: 'Acme Auto Body',
        payeeType: 'vendor',
        taxId: '12-3456789',
        address: '12 Main St, Springfield, IL 62701',
      },
      {
        name: 'Jordan Rivera',
        payeeType: 'person',
        email: 'jordan.rivera@example.test',
        address: '48 Oak Ave, Peoria, IL 61602',
      },
      { name: 'Bright & Lane LLP', payeeType: 'attorney', address: '200 Lake Shore Dr, Chicago, IL 60601' },
      {
        name: 'Prairie Medical Group',
        payeeType: 'vendor',
        taxId: '98-7654321',
        address: '9 Clinic Rd, Urbana, IL 61801',
      },
    ])
    .returning({ id: payee.id });
  const payors = await tx
    .insert(payor)
    .values([
      { name: 'Midwest Mutual Insurance', payorType: 'insurer', address: '1 Insurance Plaza, Des Moines, IA 50309' },
      { name: 'Copart Salvage', payorType: 'salvage_buyer', address: '14185 Dallas Pkwy, Dallas, TX 75254' },
    ])
    .returning({ id: payor.id });

  const exposures = await tx
    .select({ id: exposure.id, number: exposure.number, claimId: exposure.claimId, status: claim.status })
    .from(exposure)
    .innerJoin(claim, eq(claim.id, exposure.claimId))
    .where(and(ne(claim.status, 'draft')))
    .orderBy(asc(exposure.claimId), asc(exposure.number));

  for (const e of exposures) {
    const seed = e.claimId * 7 + e.number * 13;
    const indemnity = 1500 + (seed % 20) * 450; // 1500.00 … 10050.00
    const expense = 250 + (seed % 8) * 125;
    await post(tx, {
      type: 'reserve',
      exposureId: e.id,
      category: 'indemnity',
      newAmount: parseMoney(`${indemnity}.00`),
      details: { comments: 'Initial indemnity reserve.' },
    });
    await post(tx, {
      type: 'reserve',
      exposureId: e.id,
      category: 'expense',
      newAmount: parseMoney(`${expense}.00`),
      details: { comments: 'Initial expense reserve.' },
    });
    if (seed % 4 === 0) continue; // a quarter of the exposures have no payments yet
    const final = e.status === 'closed' || seed % 5 === 0;
    const paid = await post(tx, {
      type: 'payment',
      exposureId: e.id,
      category: 'indemnity',
      amount: parseMoney(`${Math.floor(indemnity * 0.4)}.50`),
      finalPayment: final,
      details: {
        comments: final ? 'Final settlement.' : 'Partial payment.',
        pay_code: 'loss',
        payment_method: seed % 2 === 0 ? 'check' : 'ach',
        payee_ids: [payees[seed % payees.length]!.id],
        deductible_amount_before_adjustments: '500.00',
        deductible_amount_to_pay: '500.00',
      },
    });
    await post(tx, {
      type: 'payment',
      exposureId: e.id,
      category: 'expense',
      amount: parseMoney(`${Math.floor(expense / 2)}.00`),
      finalPayment: false,
      details: {
        comments: 'Independent adjuster fee.',
        pay_code: 'expense',
        payment_method: 'check',
        payee_ids: [payees[0]!.id],
      },
    });
    if ((e.claimId + e.number) % 5 === 0) await voidTransaction(tx, SEED_ACTOR, paid, 'Issued to the wrong payee.');
    if (seed % 3 === 0) {
      await post(tx, {
        type: 'recovery',
        exposureId: e.id,
        category: 'indemnity',
        amount: parseMoney(`${200 + (seed % 10) * 35}.00`),
        details: {
          recovery_type: seed % 2 === 0 ? 'salvage' : 'subrogation',
          received_date: '2026-10-15',
          comments: seed % 2 === 0 ? 'Vehicle sold at salvage auction.' : 'Recovered from the other carrier.',
          payor_id: payors[seed % 2 === 0 ? 1 : 0]!.id,
          party_id: null,
        },
      });
    }
  }
}
