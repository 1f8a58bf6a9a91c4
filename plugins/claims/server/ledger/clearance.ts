import { asc, inArray } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { paymentClearance } from './clearance-tables.js';

export interface Clearance {
  id: number;
  clearedDate: string | null;
}

/** Each payment's current clearance: its row that no other row corrects. */
export async function currentClearances(tx: Queryable, transactionIds: number[]): Promise<Map<number, Clearance>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(paymentClearance)
    .where(inArray(paymentClearance.transactionId, transactionIds))
    .orderBy(asc(paymentClearance.id));
  const corrected = new Set(rows.map((r) => r.correctsId).filter((id): id is number => id !== null));
  const heads = new Map<number, Clearance>();
  for (const row of rows) {
    if (!corrected.has(row.id)) heads.set(row.transactionId, { id: row.id, clearedDate: row.clearedDate });
  }
  return heads;
}
