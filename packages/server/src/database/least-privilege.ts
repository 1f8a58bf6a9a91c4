import os from 'node:os';
import type pg from 'pg';

/**
 * Least privilege on PostgreSQL (docs/security.md, "Database privileges"). The schema owner runs
 * migrations and owns every table, trigger and function; the application connects as a role that
 * may only read and write rows. Such a role cannot ALTER a table, so it cannot disable the claims
 * ledger's append-only triggers, drop a table or change the schema, whatever SQL it is tricked into.
 *
 * The owner grants the application role, after every migration, exactly this:
 * - USAGE on each plugin schema, the job queue's schema and the migration history's schema;
 * - SELECT, INSERT, UPDATE, DELETE on their tables and USAGE, SELECT, UPDATE on their sequences
 *   (the migration history: SELECT only, to see that nothing is pending);
 * - EXECUTE on their functions (pg-boss creates queues and the identity module bumps revisions
 *   through functions);
 * - the same by default for tables the owner creates later in those schemas.
 */

/** The role a connection string signs in as (PGUSER or the OS user when the URL names none). */
export function roleOfConnectionString(url: string): string {
  const user = decodeURIComponent(new URL(url).username);
  return user || process.env.PGUSER || os.userInfo().username;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Grants `role` row access to `schemas` (plus read access to the migration history), as the owner
 * on `owner`. Idempotent; one transaction.
 */
export async function grantApplicationRole(owner: pg.Pool, role: string, schemas: string[]): Promise<void> {
  const client = await owner.connect();
  const grantee = quoteIdent(role);
  try {
    await client.query('BEGIN');
    for (const schema of schemas) {
      const s = quoteIdent(schema);
      await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${grantee}`);
      await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${grantee}`);
      await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${grantee}`);
      await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${grantee}`);
      await client.query(
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${grantee}`,
      );
      await client.query(
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${grantee}`,
      );
    }
    await client.query(`GRANT USAGE ON SCHEMA drizzle TO ${grantee}`);
    await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA drizzle TO ${grantee}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
