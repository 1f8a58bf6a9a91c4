import { sql } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';

/**
 * Claim numbers are the carrier's claim_prefix (core.carrier, primary carrier) and a sequence:
 * `CLM-000123`. The sequence row is taken with one UPDATE … RETURNING inside the caller's
 * transaction, so concurrent FNOLs never share a number and a rolled-back FNOL leaves at most a gap.
 */
const SEQUENCE = 'claim';
const FALLBACK_PREFIX = 'CLM';

export async function claimPrefix(tx: Queryable): Promise<string> {
  const rows = await tx.execute<{ claim_prefix: string }>(
    sql`select claim_prefix from core.carrier order by is_primary desc, id limit 1`,
  );
  return rows.rows[0]?.claim_prefix || FALLBACK_PREFIX;
}

export async function nextSequenceValue(tx: Queryable, name: string): Promise<number> {
  const rows = await tx.execute<{ value: string }>(
    sql`insert into claims.number_sequence (name, next_value) values (${name}, 2)
        on conflict (name) do update set next_value = claims.number_sequence.next_value + 1
        returning next_value - 1 as value`,
  );
  return Number(rows.rows[0]!.value);
}

export function formatClaimNumber(prefix: string, value: number): string {
  return `${prefix}-${String(value).padStart(6, '0')}`;
}

export async function nextClaimNumber(tx: Queryable): Promise<string> {
  const [prefix, value] = [await claimPrefix(tx), await nextSequenceValue(tx, SEQUENCE)];
  return formatClaimNumber(prefix, value);
}
