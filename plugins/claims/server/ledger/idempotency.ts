import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ApiError, type Database, type Queryable } from '@atrium/sdk/server';
import { idempotencyKey } from './tables.js';

/**
 * `Idempotency-Key` on reserve, payment and recovery creation. Within the request's database
 * transaction the key is inserted first (per user and collection); a concurrent request with the
 * same key waits on that row until the first commits, then finds it and replays the stored status
 * and body. The same key with a different body is a 422. A request that fails rolls back with its
 * key, so it can be retried with the same key.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** JSON with object keys in order, so that two equal bodies hash alike whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !KEY.test(value)) {
    throw new ApiError(400, 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.', {
      source: { header: IDEMPOTENCY_HEADER },
      code: 'invalid_idempotency_key',
    });
  }
  return value;
}

export async function withIdempotency(
  db: Database,
  request: { username: string; scope: string; key: string | null; body: unknown },
  work: (tx: Queryable) => Promise<{ status: number; body: unknown }>,
): Promise<StoredAnswer> {
  const { key } = request;
  if (key === null) return { ...(await db.transaction((tx) => work(tx))), replayed: false };
  const requestHash = createHash('sha256').update(canonical(request.body)).digest('hex');
  const where = and(
    eq(idempotencyKey.username, request.username),
    eq(idempotencyKey.scope, request.scope),
    eq(idempotencyKey.key, key),
  );
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(idempotencyKey)
      .values({ username: request.username, scope: request.scope, key, requestHash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKey.key });
    if (inserted.length === 0) {
      const [stored] = await tx.select().from(idempotencyKey).where(where);
      if (!stored || stored.requestHash !== requestHash || !stored.completed) {
        throw new ApiError(
          422,
          `The Idempotency-Key '${key}' was already used with a different request body; use a new key for a new request.`,
          { source: { header: IDEMPOTENCY_HEADER }, code: 'idempotency_key_reused' },
        );
      }
      return { status: stored.statusCode!, body: JSON.parse(stored.response!) as unknown, replayed: true };
    }
    const answer = await work(tx);
    await tx
      .update(idempotencyKey)
      .set({ statusCode: answer.status, response: JSON.stringify(answer.body), completed: true })
      .where(where);
    return { ...answer, replayed: false };
  });
}
