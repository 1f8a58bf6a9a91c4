import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './connect.js';

/**
 * A statement that fails must not take the next one down with it. On the embedded database this
 * once did: node-postgres replaces a connection after a failed query and the PGlite socket server
 * refused the replacement while the old one was still closing.
 */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: 'memory://' });
});
afterAll(async () => handle?.close());

it('answers the next statement after a failed one, simple and extended protocol, in and out of transactions', async () => {
  await expect(handle.pool.query('select 1/0')).rejects.toThrow('division by zero');
  expect((await handle.pool.query('select 2 as x')).rows).toEqual([{ x: 2 }]);

  await expect(handle.pool.query('select $1::int / 0', [1])).rejects.toThrow('division by zero');
  expect((await handle.pool.query('select $1::int as x', [3])).rows).toEqual([{ x: 3 }]);

  const client = await handle.pool.connect();
  await client.query('begin');
  await expect(client.query('insert into no_such_table values (1)')).rejects.toThrow('does not exist');
  await client.query('rollback');
  client.release();
  expect((await handle.pool.query('select 4 as x')).rows).toEqual([{ x: 4 }]);

  // Many failures in a row, each followed at once by a good statement.
  for (let i = 0; i < 5; i++) {
    await expect(handle.pool.query('select 1/0')).rejects.toThrow();
    expect((await handle.pool.query('select $1::int as x', [i])).rows).toEqual([{ x: i }]);
  }
});
