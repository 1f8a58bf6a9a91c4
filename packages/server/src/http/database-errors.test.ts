import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../database/connect.js';
import { toApiError } from './error-response.js';

/** Errors the real database raises, as routes would meet them (through drizzle), and what clients get. */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: 'memory://' });
  await handle.pool.query(`
    create table parent (id int primary key, name text unique, amount numeric(6,2), code varchar(3) not null);
    create table child (id int primary key, parent_id int references parent(id));
    insert into parent values (1, 'one', 1.00, 'abc');
    insert into child values (1, 1);`);
});
afterAll(async () => handle?.close());

const failureOf = async (statement: string) => {
  const db = drizzle(handle.pool);
  try {
    await db.execute(sql.raw(statement));
  } catch (error) {
    return toApiError(error, false);
  }
  throw new Error(`${statement} did not fail`);
};

describe('database refusals', () => {
  it('are conflicts when another writer got there first', async () => {
    const duplicate = await failureOf(`insert into parent values (2, 'one', 1, 'x')`);
    expect(duplicate.unexpected).toBe(false);
    expect(duplicate.apiError.status).toBe(409);
    expect(duplicate.apiError.meta).toEqual({ constraint: 'parent_name_key' });
    const inUse = await failureOf('delete from parent where id = 1');
    expect(inUse.apiError.status).toBe(409);
    expect((await failureOf('insert into child values (2, 99)')).apiError.status).toBe(409);
  });

  it('are bad requests when a value does not fit its column', async () => {
    for (const statement of [
      `insert into parent values (3, 'three', 123456.00, 'x')`,
      `insert into parent values (3, 'three', 1, 'toolong')`,
      `select 'x'::int`,
      `insert into parent (id, name) values (3, 'three')`,
      // Issue 14: these answered 500.
      `select '99999-01-01'::date + interval '300000 years'`,
      `select '2024-13-45'::date`,
      `select convert_from('\\x00'::bytea, 'UTF8')`,
      `select 2147483647::int + 1`,
      `select 1 / 0`,
      `select repeat('x', 5)::varchar(2)::text, 'nope'::boolean`,
    ]) {
      const failure = await failureOf(statement);
      expect(failure.unexpected, statement).toBe(false);
      expect(failure.apiError.status, statement).toBe(400);
    }
  });

  it('stay unexpected (500, logged) when they are the server’s own fault', async () => {
    const missing = await failureOf('select * from no_such_table');
    expect(missing.unexpected).toBe(true);
    expect(missing.apiError.status).toBe(500);
    // The next statement still works.
    expect((await handle.pool.query('select 1 as x')).rows).toEqual([{ x: 1 }]);
  });
});
