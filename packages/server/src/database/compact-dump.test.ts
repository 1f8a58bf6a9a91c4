import { PGlite } from '@electric-sql/pglite';
import { extract } from 'tar-stream';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dumpWithoutSpareWal } from './compact-dump.js';

async function walSegments(dump: Blob): Promise<string[]> {
  const names: string[] = [];
  const input = extract();
  Readable.from(Buffer.from(await dump.arrayBuffer())).pipe(input);
  for await (const entry of input) {
    if (/pg_wal\/[0-9A-F]{24}$/.test(entry.header.name)) names.push(entry.header.name.split('/').pop()!);
    entry.resume();
  }
  return names;
}

describe('a data directory dump without spare WAL', () => {
  it('drops the recycled segments, and the restored database has every row', async () => {
    const db = await PGlite.create();
    // ~30 MB of WAL: the cluster passes through several segments and recycles the old ones.
    await db.exec(`CREATE TABLE t (id int PRIMARY KEY, body text);
      INSERT INTO t SELECT i, repeat(md5(i::text), 16) FROM generate_series(1, 40000) i;
      CHECKPOINT;
      UPDATE t SET body = upper(body) WHERE id % 2 = 0;`);
    const plain = (await db.dumpDataDir('none')) as Blob;
    const compact = await dumpWithoutSpareWal(db);
    await db.close();

    expect((await walSegments(plain)).length).toBeGreaterThan(1);
    expect(await walSegments(compact)).toHaveLength(1);
    expect(compact.size).toBeLessThan(plain.size - 16 * 1024 * 1024);

    const restored = await PGlite.create({ loadDataDir: compact });
    const { rows } = await restored.query<{ n: number; upper: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE body = upper(body))::int AS upper FROM t`,
    );
    expect(rows[0]).toEqual({ n: 40000, upper: 20000 });
    // It takes writes that need new segments.
    await restored.exec(`UPDATE t SET body = lower(body); CHECKPOINT;`);
    await restored.close();
  }, 120_000);
});
