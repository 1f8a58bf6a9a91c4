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

/**
 * The same tarball without the `pg_wal` segment files `drop` names. Written against tar-stream's
 * event interface, which versions 2 and 3 share: the bundled server (dist/server) resolves packages
 * from the root node_modules, where another dependency's tar-stream 2 may be the one hoisted.
 */
export function withoutWalSegments(dump: Blob, drop: (segment: string) => boolean): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const input = extract();
    const output = pack();
    const chunks: Buffer[] = [];
    output.on('data', (chunk) => chunks.push(chunk as Buffer));
    output.on('end', () => resolve(new Blob([new Uint8Array(Buffer.concat(chunks))])));
    output.on('error', reject);
    input.on('error', reject);
    input.on('entry', (header, stream, next) => {
      const segment = WAL_SEGMENT.exec(header.name)?.[1];
      if (segment && drop(segment)) {
        stream.on('end', () => next());
        stream.resume();
        return;
      }
      const body: Buffer[] = [];
      stream.on('data', (chunk) => body.push(chunk as Buffer));
      stream.on('end', () => output.entry(header, Buffer.concat(body), (error) => next(error ?? undefined)));
    });
    input.on('finish', () => output.finalize());
    dump
      .arrayBuffer()
      .then((buffer) => input.end(Buffer.from(buffer)))
      .catch(reject);
  });
}
