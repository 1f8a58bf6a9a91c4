import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * Least privilege (docs/security.md, "Database privileges"). On PostgreSQL with
 * TEST_DATABASE_APP_ROLE (as .ci/run sets it) the server connects as a role that may only read and
 * write rows, so nothing it runs can alter a table or switch off the ledger's append-only triggers.
 * The embedded database has no roles; it is served on a Unix socket only its user may reach.
 */
describe('database privileges', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ appRole: process.env.TEST_DATABASE_APP_ROLE });
  });
  afterAll(async () => {
    await server?.close();
  });

  const leastPrivilege = process.env.ATRIUM_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_APP_ROLE;

  it.runIf(leastPrivilege)('the application role cannot alter tables, triggers or the schema', async () => {
    const pool = server.atrium.database.pool;
    const { rows } = await pool.query<{ user: string }>('SELECT current_user AS user');
    expect(rows[0]!.user).toBe(process.env.TEST_DATABASE_APP_ROLE);
    const refused = async (statement: string) => {
      const error = await pool.query(statement).then(
        () => null,
        (e: { code?: string }) => e,
      );
      expect(error, statement).not.toBeNull();
      // 42501 insufficient_privilege (must be owner / permission denied for schema)
      expect(error!.code, statement).toBe('42501');
    };
    await refused('ALTER TABLE claims.ledger_entry DISABLE TRIGGER ledger_entry_append_only');
    await refused('ALTER TABLE claims.ledger_transaction DISABLE TRIGGER ALL');
    await refused('DROP TABLE claims.ledger_entry');
    await refused('CREATE TABLE claims.smuggled (id int)');
    await refused('TRUNCATE claims.ledger_entry');
    await refused('SET session_replication_role = replica');
  });

  it.runIf(leastPrivilege)('the application role still does its work: sign-in, writes and the job queue', async () => {
    // Signing in writes a session; reading claims reads through the record scope.
    const admin = await signIn(server, 'admin@atrium.test');
    const claims = await server.fetch('/api/claims/claims/?page[size]=1', {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(claims.status).toBe(200);
    // The job queue's schema and queues were made by the owner; the server started its queue and
    // workers as the application role, and reads the queue's rows.
    const queues = await server.atrium.database.pool.query('SELECT name FROM pgboss.queue');
    expect(queues.rows.length).toBeGreaterThan(0);
  });

  it.runIf(process.env.ATRIUM_TEST_DB !== 'postgres')(
    'the embedded database listens on a Unix socket in a directory only its user may enter',
    () => {
      const url = new URL(server.atrium.database.connectionString);
      const dir = url.searchParams.get('host');
      expect(dir).toMatch(/^\//);
      expect(url.hostname).not.toBe('127.0.0.1');
      expect(statSync(dir!).mode & 0o777).toBe(0o700);
      expect(statSync(`${dir}/.s.PGSQL.${url.searchParams.get('port')}`).isSocket()).toBe(true);
    },
  );
});
