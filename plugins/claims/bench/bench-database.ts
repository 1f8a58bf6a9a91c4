/* eslint-disable no-console -- a benchmark prints what it does. */
import pg from 'pg';
import { createAtrium, loadConfig } from '@atrium/server';
import { BULK_CLAIMS_VERSION, seedBulkClaims } from '../server/seed/bulk-claims.js';

/**
 * The P2 benchmark's PostgreSQL database: a copy of a template that holds the demo data and
 * `claims` generated claims (server/seed/bulk-claims.ts, the generator behind `npm run seed --
 * --claims N`). The template `atrium_bench_<1m|100k|N>_template` is built once — 1,000,000 claims
 * take about a quarter of an hour — and stamped (a database comment naming the generator version and
 * the number of claims); later runs migrate it (new indexes land there once) and copy it with
 * CREATE DATABASE … TEMPLATE, which copies files instead of inserting rows. A template built by an
 * older generator is rebuilt. The copy is dropped when the run ends.
 */
const label = (claims: number) =>
  claims % 1_000_000 === 0 ? `${claims / 1_000_000}m` : claims % 1000 === 0 ? `${claims / 1000}k` : String(claims);

const stampOf = (claims: number) => `atrium bench: bulk-claims v${BULK_CLAIMS_VERSION}, ${claims} claims`;

const urlOf = (server: string, database: string) => {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const silent = { write: () => true } as unknown as NodeJS.WritableStream;

/** Migrates (and, when `seedDemo`, seeds) the database at `url` the way `npm run seed` does. */
async function prepare(url: string, seedDemo: boolean) {
  const config = { ...loadConfig({ LOG_LEVEL: 'warn' }), databaseUrl: url, workers: false };
  return createAtrium({ config, http: false, seed: seedDemo ? 'auto' : 'never', logStream: silent });
}

export async function benchDatabase(server: string, claims: number): Promise<{ url: string; drop(): Promise<void> }> {
  const template = `atrium_bench_${label(claims)}_template`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    // Copies left by runs that died before dropping theirs (their process is gone).
    const { rows: copies } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like 'atrium\\_bench\\_run\\_%'`,
    );
    for (const { datname } of copies) {
      const pid = Number(datname.split('_').at(-1));
      if (pid === process.pid || isAlive(pid)) continue;
      await admin.query(`drop database if exists ${datname} with (force)`);
    }
    const { rows } = await admin.query<{ stamp: string | null }>(
      `select shobj_description(oid, 'pg_database') as stamp from pg_database where datname = $1`,
      [template],
    );
    if (rows[0]?.stamp !== stampOf(claims)) {
      console.log(`  building ${template} (${rows.length ? 'stale' : 'missing'}): demo data and ${claims} claims`);
      const building = `${template}_building`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      const started = performance.now();
      const atrium = await prepare(urlOf(server, building), true);
      try {
        await seedBulkClaims(atrium.database.db, claims, (message) => console.log(`    ${message}`));
      } finally {
        await atrium.close();
      }
      console.log(`  built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      await admin.query(`drop database if exists ${template}`);
      await admin.query(`alter database ${building} rename to ${template}`);
      await admin.query(`comment on database ${template} is '${stampOf(claims)}'`);
    }
    // Migrations newer than the template (indexes, say) are applied to it once, not to every copy.
    await (await prepare(urlOf(server, template), false)).close();
    const copy = `atrium_bench_run_${process.pid}`;
    const started = performance.now();
    await admin.query(`drop database if exists ${copy}`);
    await admin.query(`create database ${copy} template ${template} strategy file_copy`);
    const size = await admin.query<{ bytes: string }>(`select pg_database_size($1) as bytes`, [copy]);
    console.log(
      `  copied ${template} (${(Number(size.rows[0]!.bytes) / 1024 ** 3).toFixed(2)} GiB) in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return {
      url: urlOf(server, copy),
      async drop() {
        const client = new pg.Client({ connectionString: server });
        await client.connect();
        try {
          await client.query(`drop database if exists ${copy} with (force)`);
        } finally {
          await client.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}
