import type { Database, Queryable } from '@atrium/sdk/server';
import { ApiError } from '@atrium/sdk/server';
import { bumpRevision } from '../access-revision.js';
import type { AccessState } from '../access-state.js';

/**
 * Every change to the access tables goes through here: one transaction that also bumps the
 * revision, then this process forgets its compiled policies.
 */
export async function writeAccess<T>(
  db: Database,
  state: AccessState,
  change: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const value = await change(tx);
    await bumpRevision(tx);
    return value;
  });
  state.invalidate();
  return result;
}

/** True for a PostgreSQL unique violation, however the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Runs a write; a unique violation (a concurrent duplicate) becomes the same 400 as the pre-check. */
export async function withUniqueCheck<T>(write: () => Promise<T>, duplicate: () => ApiError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}
