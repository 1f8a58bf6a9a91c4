import { and, count, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim } from '../../server/core/tables.js';
import { COLUMN_NAMES, readImportFile } from '../../server/import/import-file.js';
import { importOne, runImport } from '../../server/import/import-job.js';
import { claimNumbersOf, planImport } from '../../server/import/import-plan.js';
import { INTERRUPTED_AFTER_SECONDS } from '../../server/import/import-resume.js';
import { loadReference } from '../../server/import/import-store.js';
import { importRun, importRunClaim } from '../../server/import/tables.js';
import { ledgerEntry } from '../../server/ledger/tables.js';
import { startClaimsServer, type Caller, type ClaimsTestServer } from '../core/claims-test-server.js';

/**
 * Resuming an interrupted import run over HTTP against a real server and database
 * (docs/claims-import.md, "An interrupted run"): the process is "killed" after the job did some of
 * the claims (the job's own per-claim step, then no more heartbeats), the run shows as interrupted,
 * a resume finishes it with the counts, problems and outcomes of an uninterrupted run of the same
 * file, and no claim is imported twice. Runs that are not interrupted answer 409.
 */
let server: ClaimsTestServer;
let admin: Caller;
const ADMIN = 'admin@atrium.test';

beforeAll(async () => {
  server = await startClaimsServer();
  admin = await server.as(ADMIN);
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.atrium.database.db;

type Cells = Partial<Record<(typeof COLUMN_NAMES)[number], string>>;

const claimRow = (number: string, extra: Cells = {}): Cells => ({
  claim_number: number,
  policy_number: 'HO-9',
  product: 'Homeowners',
  date_of_loss: '2024-03-02',
  reported_date: '2024-03-04',
  claim_status: 'open',
  exposure_number: '1',
  claimant_name: 'Pat Morgan',
  coverage: 'Dwelling',
  ...extra,
});
const entry = (type: string, amount: string, posted: string): Cells => ({
  entry_type: type,
  reserve_category: 'indemnity',
  amount,
  posted_date: posted,
});

/** Four claims: two imported, one with a problem (failed), one without money; and a row without a number. */
function fileFor(prefix: string): string {
  const rows: Cells[] = [
    claimRow(`${prefix}-1`, entry('reserve', '100.00', '2024-03-05')),
    claimRow(`${prefix}-1`, entry('payment', '40.00', '2024-03-06')),
    claimRow(`${prefix}-2`, entry('reserve', '100.00', '2024-03-05')),
    claimRow(`${prefix}-2`, entry('payment', '150.00', '2024-03-06')),
    claimRow(`${prefix}-3`, entry('reserve', '300.00', '2024-03-05')),
    claimRow(`${prefix}-3`, {
      exposure_number: '2',
      claimant_name: 'Lee Park',
      ...entry('reserve', '50.00', '2024-03-07'),
    }),
    claimRow(''),
    claimRow(`${prefix}-4`),
  ];
  return [COLUMN_NAMES.join(','), ...rows.map((r) => COLUMN_NAMES.map((c) => r[c] ?? '').join(','))].join('\r\n');
}

async function getRun(id: string | number) {
  const response = await admin('GET', `/imports/${id}/`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: string; attributes: any } }).data;
}

async function untilDone(id: string | number) {
  for (;;) {
    const run = await getRun(id);
    if (run.attributes.status !== 'queued' && run.attributes.status !== 'running') return run.attributes;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function claimsOf(id: string | number) {
  const response = await admin('GET', `/imports/${id}/claims/`);
  return ((await response.json()) as { data: { attributes: any }[] }).data.map((d) => d.attributes);
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/**
 * A run as a process leaves it when it dies after `done` claims: the job took it (running, with a
 * heartbeat), did those claims with its own per-claim step, then stopped — its last progress write
 * (one claim behind: the process died between the claim and the run's update) ten minutes ago.
 */
async function interruptedRun(prefix: string, done: number) {
  const grid = (await readImportFile(Buffer.from(fileFor(prefix)), { filename: 'r.csv', contentType: 'text/csv' }))
    .grid;
  // The file names no adjuster: no claims users to ask identity about.
  const plan = planImport(grid, await loadReference(db(), claimNumbersOf(grid), []));
  const [run] = await db()
    .insert(importRun)
    .values({
      fileName: `${prefix}.csv`,
      fileSha256: prefix,
      format: 'csv',
      rows: grid,
      status: 'running',
      createdBy: ADMIN,
      startedAt: minutesAgo(12),
      heartbeatAt: minutesAgo(10),
      claimsTotal: plan.claims.length,
      claimsProcessed: done - 1,
      claimsImported: 1,
    })
    .returning();
  for (const planned of plan.claims.slice(0, done)) await importOne(db(), run!, planned);
  return run!;
}

describe('resuming an interrupted import run', () => {
  it('is shown as interrupted and finishes with the outcome of an uninterrupted run, importing no claim twice', async () => {
    // The same file run at once, for comparison.
    const started = await admin('POST', '/imports/', fileFor('U'), { 'content-type': 'text/csv' });
    expect(started.status).toBe(202);
    const startedId = ((await started.json()) as { data: { id: string } }).data.id;
    const uninterrupted = await untilDone(startedId);
    expect(uninterrupted).toMatchObject({
      status: 'completed',
      claims_total: 4,
      claims_imported: 3,
      claims_failed: 1,
      exposures_imported: 4,
      entries_imported: 4,
    });

    // R-1 (imported) and R-2 (failed) were done when the process died.
    const run = await interruptedRun('R', 2);
    const before = await getRun(run.id);
    expect(before.attributes).toMatchObject({ status: 'running', interrupted: true, claims_processed: 1 });
    const entriesOfR1 = async () => {
      const [r1] = await db().select({ id: claim.id }).from(claim).where(eq(claim.number, 'R-1'));
      return (await db().select({ n: count() }).from(ledgerEntry).where(eq(ledgerEntry.claimId, r1!.id)))[0]!.n;
    };
    const r1Entries = await entriesOfR1();
    expect(r1Entries).toBeGreaterThan(0);

    const resumed = await admin('POST', `/imports/${run.id}/resume/`);
    expect(resumed.status).toBe(202);
    expect(resumed.headers.get('location')).toBe(`/api/claims/imports/${run.id}/`);
    const resumedDoc = (await resumed.json()) as { data: { attributes: any } };
    // Running again (the job may already have finished the four claims by the time it answers).
    expect(resumedDoc.data.attributes).toMatchObject({ interrupted: false });
    expect(['running', 'completed']).toContain(resumedDoc.data.attributes.status);

    const finished = await untilDone(run.id);
    const countsOf = (r: any) => ({
      status: r.status,
      interrupted: r.interrupted,
      progress: r.progress,
      claims_total: r.claims_total,
      claims_processed: r.claims_processed,
      claims_imported: r.claims_imported,
      claims_skipped: r.claims_skipped,
      claims_failed: r.claims_failed,
      exposures_imported: r.exposures_imported,
      entries_imported: r.entries_imported,
    });
    expect(countsOf(finished)).toEqual(countsOf(uninterrupted));
    const asR = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/\bU-(\d)/g, 'R-$1'));
    expect(finished.problems).toEqual(asR(uninterrupted.problems));
    expect(finished.problems.map((p: any) => p.message)).toContain('Claim number is required.');
    const outcomes = (claims: any[]) =>
      claims.map((c) => [c.claim_number, c.outcome, c.exposures, c.entries, c.detail]);
    expect(outcomes(await claimsOf(run.id))).toEqual(asR(outcomes(await claimsOf(startedId))));

    // Nothing twice: one claim per imported number, one outcome per claim, R-1's ledger as it was.
    const written = await db().select({ number: claim.number }).from(claim).where(like(claim.number, 'R-%'));
    expect(written.map((c) => c.number).sort()).toEqual(['R-1', 'R-3', 'R-4']);
    const rows = await db().select().from(importRunClaim).where(eq(importRunClaim.runId, run.id));
    expect(rows.map((r) => r.claimNumber).sort()).toEqual(['R-1', 'R-2', 'R-3', 'R-4']);
    expect(await entriesOfR1()).toBe(r1Entries);
  });

  it('lets one of two resumes at once take the run; the other is a 409', async () => {
    const run = await interruptedRun('T', 1);
    const answers = await Promise.all([
      admin('POST', `/imports/${run.id}/resume/`),
      admin('POST', `/imports/${run.id}/resume/`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const finished = await untilDone(run.id);
    expect(finished).toMatchObject({ status: 'completed', claims_processed: 4, claims_imported: 3, claims_failed: 1 });
    const [row] = await db().select({ attempt: importRun.attempt }).from(importRun).where(eq(importRun.id, run.id));
    expect(row!.attempt).toBe(2);

    // The job of the attempt the resume took over does nothing: not a claim, not a count.
    const outcomesBefore = await db()
      .select({ n: count() })
      .from(importRunClaim)
      .where(eq(importRunClaim.runId, run.id));
    await db().update(importRun).set({ status: 'running' }).where(eq(importRun.id, run.id));
    await runImport(db(), run.id, undefined, 1);
    const [after] = await db().select().from(importRun).where(eq(importRun.id, run.id));
    expect(after!.claimsProcessed).toBe(4);
    expect(await db().select({ n: count() }).from(importRunClaim).where(eq(importRunClaim.runId, run.id))).toEqual(
      outcomesBefore,
    );
    await db().update(importRun).set({ status: 'completed' }).where(eq(importRun.id, run.id));
  });

  it('answers 409 for a run that is not interrupted, 404 for none, 403 without claims:import', async () => {
    // Running and making progress: not interrupted yet.
    const live = await interruptedRun('L', 0);
    await db()
      .update(importRun)
      .set({ heartbeatAt: new Date(Date.now() - (INTERRUPTED_AFTER_SECONDS - 30) * 1000) })
      .where(eq(importRun.id, live.id));
    expect((await getRun(live.id)).attributes.interrupted).toBe(false);
    const refused = await admin('POST', `/imports/${live.id}/resume/`);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { errors: { status: string; detail: string; code: string }[] };
    expect(body.errors[0]).toMatchObject({
      status: '409',
      code: 'not-interrupted',
      detail: `Import run ${live.id} is running and made progress in the last 2 minutes; only an interrupted run can be resumed.`,
    });

    // Completed (or failed) runs are never interrupted, however old.
    await db()
      .update(importRun)
      .set({ status: 'completed', heartbeatAt: minutesAgo(60) })
      .where(eq(importRun.id, live.id));
    expect((await getRun(live.id)).attributes.interrupted).toBe(false);
    const completed = await admin('POST', `/imports/${live.id}/resume/`);
    expect(completed.status).toBe(409);
    expect(((await completed.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toBe(
      `Import run ${live.id} is completed; only an interrupted run can be resumed.`,
    );
    const [unchanged] = await db().select().from(importRun).where(eq(importRun.id, live.id));
    expect(unchanged!.attempt).toBe(1);

    expect((await admin('POST', '/imports/999999/resume/')).status).toBe(404);

    const stale = await interruptedRun('S', 0);
    const adjuster = await server.as('adjuster@atrium.test');
    expect((await adjuster('POST', `/imports/${stale.id}/resume/`)).status).toBe(403);
    const [still] = await db()
      .select()
      .from(importRun)
      .where(and(eq(importRun.id, stale.id)));
    expect(still).toMatchObject({ status: 'running', attempt: 1 });
    expect(
      await db()
        .select({ number: claim.number })
        .from(claim)
        .where(inArray(claim.number, ['S-1', 'S-3', 'S-4'])),
    ).toEqual([]);
  });
});
