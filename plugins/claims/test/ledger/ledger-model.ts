import type { ReserveCategory } from '../../server/ledger/ledger-entry.js';

/**
 * A deliberately naive reference model of one claim's money, written without the ledger's code:
 * three running numbers per (exposure, category) and the list of payments and recoveries. The
 * property tests run the same commands against the real ledger (pure, or over HTTP and the
 * database) and compare.
 */
export interface ModelCell {
  reserve: bigint;
  paid: bigint;
  recovered: bigint;
}

export interface ModelMovement {
  exposure: number;
  category: ReserveCategory;
  amount: bigint;
  /** What the payment took from the reserve (its amount, plus the rest when final). */
  reserveTaken: bigint;
  voided: boolean;
}

export class LedgerModel {
  cells = new Map<string, ModelCell>();
  payments: ModelMovement[] = [];
  recoveries: ModelMovement[] = [];

  cell(exposure: number, category: ReserveCategory): ModelCell {
    const key = `${exposure}|${category}`;
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = { reserve: 0n, paid: 0n, recovered: 0n }));
    return cell;
  }

  /** Each method answers whether the ledger must accept the command, and applies it if so. */
  setReserve(exposure: number, category: ReserveCategory, amount: bigint): boolean {
    const cell = this.cell(exposure, category);
    if (amount < 0n || amount === cell.reserve) return false;
    cell.reserve = amount;
    return true;
  }

  changeReserve(exposure: number, category: ReserveCategory, change: bigint): boolean {
    const cell = this.cell(exposure, category);
    if (change === 0n || cell.reserve + change < 0n) return false;
    cell.reserve += change;
    return true;
  }

  pay(exposure: number, category: ReserveCategory, amount: bigint, final: boolean): boolean {
    const cell = this.cell(exposure, category);
    if (amount <= 0n || amount > cell.reserve) return false;
    const reserveTaken = final ? cell.reserve : amount;
    cell.paid += amount;
    cell.reserve -= reserveTaken;
    this.payments.push({ exposure, category, amount, reserveTaken, voided: false });
    return true;
  }

  recover(exposure: number, category: ReserveCategory, amount: bigint): boolean {
    if (amount <= 0n) return false;
    this.cell(exposure, category).recovered += amount;
    this.recoveries.push({ exposure, category, amount, reserveTaken: 0n, voided: false });
    return true;
  }

  voidPayment(index: number): boolean {
    const payment = this.payments[index];
    if (!payment || payment.voided) return false;
    const cell = this.cell(payment.exposure, payment.category);
    cell.paid -= payment.amount;
    cell.reserve += payment.reserveTaken;
    payment.voided = true;
    return true;
  }

  voidRecovery(index: number): boolean {
    const recovery = this.recoveries[index];
    if (!recovery || recovery.voided) return false;
    this.cell(recovery.exposure, recovery.category).recovered -= recovery.amount;
    recovery.voided = true;
    return true;
  }

  exposureTotals(exposure: number): ModelCell {
    const total = { reserve: 0n, paid: 0n, recovered: 0n };
    for (const [key, cell] of this.cells) {
      if (Number(key.split('|')[0]) !== exposure) continue;
      total.reserve += cell.reserve;
      total.paid += cell.paid;
      total.recovered += cell.recovered;
    }
    return total;
  }
}
