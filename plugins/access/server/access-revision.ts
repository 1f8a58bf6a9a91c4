import { sql } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { accessRevision } from './tables.js';

/**
 * The change counter of the access tables. Writes bump it inside their transaction; every server
 * process compares it with the revision its compiled policies were built from.
 */
export async function bumpRevision(tx: Queryable): Promise<void> {
  await tx
    .insert(accessRevision)
    .values({ id: 1, value: 1 })
    .onConflictDoUpdate({
      target: accessRevision.id,
      set: { value: sql`${accessRevision.value} + 1`, changedAt: sql`now()` },
    });
}

export async function readRevision(db: Queryable): Promise<number> {
  const [row] = await db.select({ value: accessRevision.value }).from(accessRevision).limit(1);
  return row?.value ?? 0;
}
