import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LedgerBalances, totalIncurred } from '../../server/ledger/balances.js';
import type { EntryDraft, LedgerEntry, ReserveCategory } from '../../server/ledger/ledger-entry.js';
import {
  LedgerRuleError,
  planPayment,
  planRecovery,
  planReserve,
  planReversal,
} from '../../server/ledger/posting-rules.js';
import { LedgerModel } from './ledger-model.js';

/**
 * Command-sequence properties of the pure ledger: the posting rules and the balance derivation,
 * against the naive model in ledger-model.ts. (ledger-api.api.test.ts runs the same kind of
 * sequences over HTTP against the database.)
 */
const CLAIM = 1;
const EXPOSURES = [11, 12];
const CATEGORIES: ReserveCategory[] = ['indemnity', 'expense'];

/** The system under test: posted entries, balances kept incrementally, and the transactions. */
class PureLedger {
  entries: LedgerEntry[] = [];
  balances = new LedgerBalances();
  transactions: { type: 'payment' | 'recovery'; entries: LedgerEntry[]; voided: boolean }[] = [];
  private nextId = 1;

  post(drafts: EntryDraft[]): LedgerEntry[] {
    const transactionId = this.nextId++;
    const posted = drafts.map((d) => ({ ...d, id: this.nextId++, transactionId }));
    for (const entry of posted) {
      this.entries.push(entry);
      this.balances.apply(entry);
    }
    return posted;
  }

  attempt(plan: () => EntryDraft[]): boolean {
    try {
      this.post(plan());
      return true;
    } catch (error) {
      if (error instanceof LedgerRuleError) return false;
      throw error;
    }
  }
}

interface World {
  model: LedgerModel;
  real: PureLedger;
}

type Cmd = fc.Command<LedgerModel, PureLedger>;

const exposure = fc.constantFrom(...EXPOSURES);
const category = fc.constantFrom(...CATEGORIES);
// Small cents so that payments often hit the reserve exactly and go over it.
const cents = fc.bigInt({ min: 0n, max: 50_000n });

class SetReserve implements Cmd {
  constructor(
    readonly e: number,
    readonly c: ReserveCategory,
    readonly amount: bigint,
  ) {}
  check = () => true;
  run(model: LedgerModel, real: PureLedger) {
    const expected = model.setReserve(this.e, this.c, this.amount);
    const ok = real.attempt(() =>
      planReserve(
        { claimId: CLAIM, exposureId: this.e, category: this.c, newAmount: this.amount },
        real.balances.category(this.e, this.c),
      ),
    );
    expect(ok).toBe(expected);
  }
  toString = () => `setReserve(${this.e},${this.c},${this.amount})`;
}

class ChangeReserve implements Cmd {
  constructor(
    readonly e: number,
    readonly c: ReserveCategory,
    readonly change: bigint,
  ) {}
  check = () => true;
  run(model: LedgerModel, real: PureLedger) {
    const expected = model.changeReserve(this.e, this.c, this.change);
    const ok = real.attempt(() =>
      planReserve(
        { claimId: CLAIM, exposureId: this.e, category: this.c, change: this.change },
        real.balances.category(this.e, this.c),
      ),
    );
    expect(ok).toBe(expected);
  }
  toString = () => `changeReserve(${this.e},${this.c},${this.change})`;
}

class Pay implements Cmd {
  constructor(
    readonly e: number,
    readonly c: ReserveCategory,
    readonly amount: bigint,
    readonly final: boolean,
  ) {}
  check = () => true;
  run(model: LedgerModel, real: PureLedger) {
    const expected = model.pay(this.e, this.c, this.amount, this.final);
    let posted: LedgerEntry[] | null = null;
    try {
      posted = real.post(
        planPayment(
          { claimId: CLAIM, exposureId: this.e, category: this.c, amount: this.amount, finalPayment: this.final },
          real.balances.category(this.e, this.c),
        ),
      );
    } catch (error) {
      if (!(error instanceof LedgerRuleError)) throw error;
    }
    expect(posted !== null).toBe(expected);
    if (posted) real.transactions.push({ type: 'payment', entries: posted, voided: false });
  }
  toString = () => `pay(${this.e},${this.c},${this.amount},${this.final})`;
}

class Recover implements Cmd {
  constructor(
    readonly e: number,
    readonly c: ReserveCategory,
    readonly amount: bigint,
  ) {}
  check = () => true;
  run(model: LedgerModel, real: PureLedger) {
    const expected = model.recover(this.e, this.c, this.amount);
    let posted: LedgerEntry[] | null = null;
    try {
      posted = real.post(planRecovery({ claimId: CLAIM, exposureId: this.e, category: this.c, amount: this.amount }));
    } catch (error) {
      if (!(error instanceof LedgerRuleError)) throw error;
    }
    expect(posted !== null).toBe(expected);
    if (posted) real.transactions.push({ type: 'recovery', entries: posted, voided: false });
  }
  toString = () => `recover(${this.e},${this.c},${this.amount})`;
}

class Void implements Cmd {
  constructor(
    readonly type: 'payment' | 'recovery',
    readonly index: number,
  ) {}
  check = () => true;
  run(model: LedgerModel, real: PureLedger) {
    const expected = this.type === 'payment' ? model.voidPayment(this.index) : model.voidRecovery(this.index);
    const transaction = real.transactions.filter((t) => t.type === this.type)[this.index];
    const ok = real.attempt(() => planReversal(transaction?.entries ?? [], transaction?.voided ?? false, this.type));
    if (ok) transaction!.voided = true;
    expect(ok).toBe(expected);
  }
  toString = () => `void(${this.type},${this.index})`;
}

const commands = [
  fc.tuple(exposure, category, cents).map(([e, c, a]) => new SetReserve(e, c, a)),
  fc
    .tuple(exposure, category, fc.bigInt({ min: -30_000n, max: 30_000n }))
    .map(([e, c, a]) => new ChangeReserve(e, c, a)),
  fc.tuple(exposure, category, cents, fc.boolean()).map(([e, c, a, f]) => new Pay(e, c, a, f)),
  fc.tuple(exposure, category, cents).map(([e, c, a]) => new Recover(e, c, a)),
  fc
    .tuple(fc.constantFrom<'payment' | 'recovery'>('payment', 'recovery'), fc.nat({ max: 6 }))
    .map(([t, i]) => new Void(t, i)),
];

function checkInvariants({ model, real }: World) {
  const replayed = LedgerBalances.replay(real.entries);
  for (const e of EXPOSURES) {
    for (const c of CATEGORIES) {
      const live = real.balances.category(e, c);
      // Reserves never negative, the balance equals the model, and replay reproduces it.
      expect(live.reserve >= 0n).toBe(true);
      expect(live).toEqual({ ...model.cell(e, c) });
      expect(replayed.category(e, c)).toEqual(live);
    }
    // Sums hold: an exposure is the sum of its categories.
    const exposureSums = real.balances.exposure(e);
    expect(exposureSums).toEqual(model.exposureTotals(e));
    expect(totalIncurred(exposureSums)).toBe(exposureSums.paid + exposureSums.reserve);
  }
  // The claim is the sum of its exposures, and the sum of every entry per bucket.
  const claim = real.balances.claim(CLAIM);
  const byBucket = { reserve: 0n, paid: 0n, recovered: 0n };
  for (const entry of real.entries) {
    byBucket[entry.kind === 'payment' ? 'paid' : entry.kind === 'recovery' ? 'recovered' : 'reserve'] += entry.amount;
  }
  expect(claim).toEqual(byBucket);
  const sumOfExposures = EXPOSURES.map((e) => real.balances.exposure(e)).reduce((a, b) => ({
    reserve: a.reserve + b.reserve,
    paid: a.paid + b.paid,
    recovered: a.recovered + b.recovered,
  }));
  expect(claim).toEqual(sumOfExposures);
}

describe('ledger properties (pure)', () => {
  it('sums hold, reserves never go negative, replay reproduces every balance', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
        const world: World = { model: new LedgerModel(), real: new PureLedger() };
        fc.modelRun(
          () => ({ model: world.model, real: world.real }),
          [...cmds].flatMap((cmd) => [
            cmd,
            { check: () => true, run: () => checkInvariants(world), toString: () => 'check' },
          ]),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('a void restores the reserve a final payment closed, and cannot be repeated', () => {
    const real = new PureLedger();
    real.post(
      planReserve(
        { claimId: CLAIM, exposureId: 11, category: 'indemnity', newAmount: 100_00n },
        real.balances.category(11, 'indemnity'),
      ),
    );
    const payment = real.post(
      planPayment(
        { claimId: CLAIM, exposureId: 11, category: 'indemnity', amount: 40_00n, finalPayment: true },
        real.balances.category(11, 'indemnity'),
      ),
    );
    expect(payment.map((e) => [e.kind, e.amount])).toEqual([
      ['payment', 40_00n],
      ['reserve_erosion', -40_00n],
      ['reserve_close', -60_00n],
    ]);
    expect(real.balances.category(11, 'indemnity')).toEqual({ reserve: 0n, paid: 40_00n, recovered: 0n });
    const reversal = real.post(planReversal(payment, false, 'payment'));
    expect(reversal.every((r, i) => r.reversesEntryId === payment[i]!.id && r.amount === -payment[i]!.amount)).toBe(
      true,
    );
    expect(real.balances.category(11, 'indemnity')).toEqual({ reserve: 100_00n, paid: 0n, recovered: 0n });
    expect(() => planReversal(payment, true, 'payment')).toThrow('The payment is already voided.');
  });

  it('refuses a payment over the open reserve with the amounts in the message', () => {
    const real = new PureLedger();
    real.post(
      planReserve(
        { claimId: CLAIM, exposureId: 11, category: 'expense', newAmount: 50_00n },
        real.balances.category(11, 'expense'),
      ),
    );
    expect(() =>
      planPayment(
        { claimId: CLAIM, exposureId: 11, category: 'expense', amount: 50_01n, finalPayment: false },
        real.balances.category(11, 'expense'),
      ),
    ).toThrow('The payment of 50.01 exceeds the open expense reserve of 50.00. Raise the reserve first.');
  });
});
