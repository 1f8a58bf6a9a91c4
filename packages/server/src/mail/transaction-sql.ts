import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';

/**
 * pg-boss's `executeSql` over a Drizzle transaction, so a job is created inside the caller's
 * transaction: it exists only if that transaction commits (and on the embedded database, whose pool
 * has one connection, no second connection is needed while the transaction holds it). pg-boss
 * speaks positional `$n` parameters; each becomes a bound parameter of the same value.
 */
export function transactionSql(tx: Queryable) {
  return {
    async executeSql(text: string, values: unknown[] = []): Promise<{ rows: unknown[] }> {
      const parts = text.split(/\$(\d+)(?!\d)/);
      const chunks: SQL[] = parts.map((part, index) =>
        index % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1] ?? null)}`,
      );
      const result = (await tx.execute(sql.join(chunks))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}
