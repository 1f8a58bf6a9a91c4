import { Readable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { extract, pack } from 'tar-stream';

/**
 * A dump of an embedded database's data directory without the write-ahead log it does not need.
 *
 * PGlite's `dumpDataDir` tars the live files as they are. After seeding, `pg_wal` held two or three
 * 16 MiB segments (33.5 of the template's 71 MB, 29 Nov): the one crash recovery starts from, and
 * old ones PostgreSQL recycles as spare future segments. Every test server and every fresh
 * `npm start` restores the dump, so each of those bytes is copied into memory on every start.
 *
 * So: CHECKPOINT first (dirty pages reach the data files, and recovery on restore starts at the new
 * checkpoint), then keep only the segments from the checkpoint's redo point to the current insert
 * position — what crash recovery reads — and drop the spare ones, which PostgreSQL creates again
 * when it needs them. WAL file names of one timeline sort in LSN order.
 */
export async function dumpWithoutSpareWal(pglite: PGlite): Promise<Blob> {
  await pglite.exec('CHECKPOINT');
  const walFile = async (lsn: string) =>
    (await pglite.query<{ name: string }>(`SELECT pg_walfile_name(${lsn}) AS name FROM pg_control_checkpoint()`))
      .rows[0]?.name;
  // The redo point before the tar and the insert position after it bracket whatever the tar holds,
  // even if something wrote (or checkpointed again) in between: nothing recovery reads is dropped.
  const first = await walFile('redo_lsn');
  const dump = (await pglite.dumpDataDir('none')) as Blob;
  const last = await walFile('pg_current_wal_insert_lsn()');
  if (!first || !last) return dump;
  return withoutWalSegments(dump, (segment) => segment < first || segment > last);
}

/** A WAL segment's file name: timeline, log and segment, 24 hexadecimal digits. */
const WAL_SEGMENT = /(?:^|\/)pg_wal\/([0-9A-F]{24})$/;

/** The same tarball without the `pg_wal` segment files `drop` names. */
export async function withoutWalSegments(dump: Blob, drop: (segment: string) => boolean): Promise<Blob> {
  const input = extract();
  const output = pack();
  const packed = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of output) chunks.push(chunk as Buffer);
    return chunks;
  })();
  Readable.from(Buffer.from(await dump.arrayBuffer())).pipe(input);
  for await (const entry of input) {
    const segment = WAL_SEGMENT.exec(entry.header.name)?.[1];
    if (segment && drop(segment)) {
      entry.resume();
      continue;
    }
    const body: Buffer[] = [];
    for await (const chunk of entry) body.push(chunk as Buffer);
    await new Promise<void>((resolve, reject) =>
      output.entry(entry.header, Buffer.concat(body), (error) => (error ? reject(error) : resolve())),
    );
  }
  output.finalize();
  return new Blob([new Uint8Array(Buffer.concat(await packed))]);
}
