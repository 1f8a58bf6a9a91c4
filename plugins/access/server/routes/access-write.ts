import { isUniqueViolation } from '@atrium/sdk/server';
import type { Database, Queryable } from '@atrium/sdk/server';
import { ApiError, emitEvent } from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { accessEvent, type AccessAction, type AccessEntity } from '../events.js';
import { bumpRevision } from '../access-revision.js';
import type { AccessState } from '../access-state.js';

/** The event a change emits (events.ts): what changed, by whom; `describe` reads the change's result. */
export interface AccessChange<T> {
  entity: AccessEntity;
  action: AccessAction;
  request: FastifyRequest;
  describe(result: T): { id: string | null; name: string; subject?: string | null };
}

/**
 * Every change to the access tables goes through here: one transaction that also bumps the
 * revision and writes the change's event to the outbox, then this process forgets its compiled
 * policies.
 */
export async function writeAccess<T>(
  db: Database,
  state: AccessState,
  change: (tx: Queryable) => Promise<T>,
  event?: AccessChange<T>,
): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const value = await change(tx);
    await bumpRevision(tx);
    if (event) {
      const by = event.request.principal?.username ?? 'system';
      const what = event.describe(value);
      await emitEvent(
        tx,
        accessEvent(event.entity, event.action),
        { id: what.id, name: what.name, subject: what.subject ?? null, changed_by: by },
        { triggeringUser: by },
      );
    }
    return value;
  });
  state.invalidate();
  return result;
}

// The SDK's: this module's callers import it from here.
export { isUniqueViolation };

/** Runs a write; a unique violation (a concurrent duplicate) becomes the same 400 as the pre-check. */
export async function withUniqueCheck<T>(write: () => Promise<T>, duplicate: () => ApiError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}
