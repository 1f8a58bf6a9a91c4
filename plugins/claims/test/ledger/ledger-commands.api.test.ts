import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReserveCategory } from '../../server/ledger/ledger-entry.js';
import { formatMoney, parseMoney } from '../../server/ledger/money.js';
import { LedgerModel } from './ledger-model.js';
import {
  financialsOf,
  paymentDoc,
  recoveryDoc,
  reserveDoc,
  startLedgerServer,
  voidDoc,
  type LedgerTestServer,
} from './ledger-test-server.js';

/**
 * Command sequences over HTTP against the real database (fc.asyncModelRun): after every command the
 * claim's financial summary equals the naive model, no reserve is negative, the claim is the sum of
 * its exposures, and replaying GET ledger-entries/ reproduces every balance. Runs as the
 * administrator (no authority limits) so every accepted command posts at once.
 */
let server: LedgerTestServer;
beforeAll(async () => {
  server = await startLedgerServer();
});
afterAll(async () => {
  await server?.close();
});

const CATEGORIES: ReserveCategory[] = ['indemnity', 'expense'];

interface Real {
  claimId: number;
  exposureIds: number[];
  payments: string[];
  recoveries: string[];
}
type Cmd = fc.AsyncCommand<LedgerModel, Real>;

const post = async (path: string, doc: unknown) => {
  const response = await server.admin.post(path, doc);
  expect(response.status).toBeLessThan(500);
  return response;
};

class SetReserve implements Cmd {
  constructor(
    readonly e: number,
    readonly c: ReserveCategory,
    readonly cents: bigint,
  ) {}
  check = () => true;
  async run(model: LedgerModel, real: Real) {
    const expected = model.setReserve(this.e, this.c, this.cents);
    const response = await post(
      '/api/claims/reserves/',
      reserveDoc(real.exposureIds[this.e]!, { new_amount: formatMoney(this.cents), reserve_category: this.c }),
    );
    expect(response.status).toBe(expected ? 201 : 400);
  }
  toString = () => `setReserve(${this.e}, ${this.c}, ${formatMoney(this.cents)})`;
}

class Pay implements Cmd {
  constructor(
    readonly e: number,
    readonly c: ReserveCategory,
    readonly cents: bigint,
    readonly final: boolean,
  ) {}
  check = () => true;
  async run(model: LedgerModel, real: Real) {
    const expected = model.pay(this.e, this.c, this.cents, this.final);
    const response = await post(
      '/api/claims/payments/',
      paymentDoc(real.exposureIds[this.e]!, {
        amount: formatMoney(this.cents),
        reserve_category: this.c,
        final_payment: this.final,
      }),
    );
    expect(response.status).toBe(expected ? 201 : 400);
    if (expected) real.payments.push(((await response.json()) as { data: { id: string } }).data.id);
  }
  toString = () => `pay(${this.e}, ${this.c}, ${formatMoney(this.cents)}, final=${this.final})`;
}

class Recover implements Cmd {
  constructor(
    readonly e: number,
    readonly c: ReserveCategory,
    readonly cents: bigint,
  ) {}
  check = () => true;
  async run(model: LedgerModel, real: Real) {
    const expected = model.recover(this.e, this.c, this.cents);
    const response = await post(
      '/api/claims/recoveries/',
      recoveryDoc(real.exposureIds[this.e]!, {
        amount: formatMoney(this.cents),
        reserve_category: this.c,
        recovery_type: 'subrogation',
      }),
    );
    expect(response.status).toBe(expected ? 201 : 400);
    if (expected) real.recoveries.push(((await response.json()) as { data: { id: string } }).data.id);
  }
  toString = () => `recover(${this.e}, ${this.c}, ${formatMoney(this.cents)})`;
}

class Void implements Cmd {
  constructor(
    readonly what: 'payments' | 'recoveries',
    readonly index: number,
  ) {}
  check = (model: Readonly<LedgerModel>) =>
    (this.what === 'payments' ? model.payments : model.recoveries).length > this.index;
  async run(model: LedgerModel, real: Real) {
    const expected = this.what === 'payments' ? model.voidPayment(this.index) : model.voidRecovery(this.index);
    const id = (this.what === 'payments' ? real.payments : real.recoveries)[this.index]!;
    const response = await post(`/api/claims/${this.what}/${id}/void/`, voidDoc(this.what, 'Correction'));
    expect(response.status).toBe(expected ? 200 : 409);
  }
  toString = () => `void(${this.what}, ${this.index})`;
}

async function checkInvariants(model: LedgerModel, real: Real) {
  const financials = await financialsOf(server.admin, real.claimId);
  const claimTotals = { reserve: 0n, paid: 0n, recovered: 0n };
  financials.exposures.forEach((exposure, e) => {
    const expected = model.exposureTotals(e);
    expect([exposure.reserve_outstanding, exposure.paid, exposure.recovered]).toEqual(
      [expected.reserve, expected.paid, expected.recovered].map(formatMoney),
    );
    expect(exposure.total_incurred).toBe(formatMoney(expected.reserve + expected.paid));
    for (const category of exposure.categories) {
      expect(parseMoney(category.reserve_outstanding) >= 0n).toBe(true);
      const cell = model.cell(e, category.reserve_category as ReserveCategory);
      expect([category.reserve_outstanding, category.paid, category.recovered]).toEqual(
        [cell.reserve, cell.paid, cell.recovered].map(formatMoney),
      );
    }
    claimTotals.reserve += expected.reserve;
    claimTotals.paid += expected.paid;
    claimTotals.recovered += expected.recovered;
  });
  expect([financials.reserve_outstanding, financials.paid, financials.recovered, financials.net_incurred]).toEqual(
    [
      claimTotals.reserve,
      claimTotals.paid,
      claimTotals.recovered,
      claimTotals.reserve + claimTotals.paid - claimTotals.recovered,
    ].map(formatMoney),
  );
  // Replaying the posted entries reproduces every balance.
  const entries = (await (
    await server.admin.get(`/api/claims/ledger-entries/?filter[claim]=${real.claimId}`)
  ).json()) as {
    data: { attributes: { kind: string; amount: string; exposure_id: string } }[];
  };
  const replayed = new Map<string, bigint>();
  for (const { attributes: a } of entries.data) {
    const bucket = a.kind === 'payment' ? 'paid' : a.kind === 'recovery' ? 'recovered' : 'reserve';
    const key = `${a.exposure_id}|${bucket}`;
    replayed.set(key, (replayed.get(key) ?? 0n) + parseMoney(a.amount));
  }
  for (const exposure of financials.exposures) {
    expect(formatMoney(replayed.get(`${exposure.exposure_id}|reserve`) ?? 0n)).toBe(exposure.reserve_outstanding);
    expect(formatMoney(replayed.get(`${exposure.exposure_id}|paid`) ?? 0n)).toBe(exposure.paid);
    expect(formatMoney(replayed.get(`${exposure.exposure_id}|recovered`) ?? 0n)).toBe(exposure.recovered);
  }
}

const exposure = fc.constantFrom(0, 1);
const category = fc.constantFrom(...CATEGORIES);
const cents = fc.bigInt({ min: 1n, max: 30_000n });
const commands = [
  fc.tuple(exposure, category, fc.bigInt({ min: 0n, max: 40_000n })).map(([e, c, a]) => new SetReserve(e, c, a)),
  fc.tuple(exposure, category, cents, fc.boolean()).map(([e, c, a, f]) => new Pay(e, c, a, f)),
  fc.tuple(exposure, category, cents).map(([e, c, a]) => new Recover(e, c, a)),
  fc
    .tuple(fc.constantFrom<'payments' | 'recoveries'>('payments', 'recoveries'), fc.nat({ max: 3 }))
    .map(([w, i]) => new Void(w, i)),
];

describe('ledger properties over HTTP and the database', () => {
  it('sums hold, reserves never go negative, replay reproduces every balance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 10 }), async (cmds) => {
        const { claimId, exposureIds } = await server.createClaim(2);
        const model = new LedgerModel();
        const real: Real = { claimId, exposureIds, payments: [], recoveries: [] };
        const checked = [...cmds].flatMap((cmd) => [
          cmd,
          {
            check: () => true,
            run: (m: LedgerModel, r: Real) => checkInvariants(m, r),
            toString: () => 'check',
          } as Cmd,
        ]);
        await fc.asyncModelRun(() => ({ model, real }), checked);
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
