import ExcelJS from 'exceljs';
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_LIMITS } from '@atrium/sdk/server';
import { declaringSize, zipOfZeros, zipWithEntries } from '@atrium/sdk/testing';
import { auditLog, claim } from '../../server/core/tables.js';
import { COLUMN_NAMES } from '../../server/import/import-file.js';
import { importRun } from '../../server/import/tables.js';
import { ledgerEntry, ledgerTransaction } from '../../server/ledger/tables.js';
import { JSONAPI, startClaimsServer, type ClaimsTestServer } from '../core/claims-test-server.js';

/**
 * Import Historical Claims over HTTP against a real server and database (docs/claims-import.md):
 * the template, every validation message, the dry run writing nothing, the job importing claims
 * whose ledger totals are the file's, re-runs skipping, one bad claim left out, and the permission.
 */
let server: ClaimsTestServer;
const tokens = new Map<string, string>();

beforeAll(async () => {
  server = await startClaimsServer();
});
afterAll(async () => {
  await server?.close();
});

async function tokenOf(username: string): Promise<string> {
  if (!tokens.has(username)) {
    const response = await server.fetch('/api/identity/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'Atrium!demo1' }),
    });
    const body = (await response.json()) as { authentication_result: { access_token: string } };
    tokens.set(username, body.authentication_result.access_token);
  }
  return tokens.get(username)!;
}

const ADMIN = 'admin@atrium.test';
const ADJUSTER = 'adjuster@atrium.test';

async function call(username: string, method: string, path: string, body?: FormData | string, type?: string) {
  return server.fetch(`/api/claims${path}`, {
    method,
    headers: {
      accept: JSONAPI,
      authorization: `Bearer ${await tokenOf(username)}`,
      ...(type ? { 'content-type': type } : {}),
    },
    body,
  });
}

function form(csv: string, name = 'claims.csv'): FormData {
  const data = new FormData();
  data.append('file', new Blob([csv], { type: 'text/csv' }), name);
  return data;
}

type Cells = Partial<Record<(typeof COLUMN_NAMES)[number], string>>;

/** A claim's header columns; rows add exposure and entry columns. */
function claimRow(number: string, extra: Cells = {}): Cells {
  return {
    claim_number: number,
    policy_number: 'HO-77',
    product: 'Homeowners',
    date_of_loss: '2024-03-02',
    reported_date: '2024-03-04',
    loss_city: 'Springfield',
    loss_state: 'IL',
    loss_description: 'Kitchen fire',
    claim_status: 'open',
    exposure_number: '1',
    claimant_name: 'Pat Morgan',
    coverage: 'Dwelling',
    ...extra,
  };
}

const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
function csvOf(rows: Cells[], columns: readonly string[] = COLUMN_NAMES): string {
  return [columns.join(','), ...rows.map((r) => columns.map((c) => quote(r[c as keyof Cells] ?? '')).join(','))].join(
    '\r\n',
  );
}

async function preview(csv: string, username = ADMIN) {
  const response = await call(username, 'POST', '/imports/preview/', form(csv));
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { attributes: any } }).data.attributes;
}

/** Starts an import and waits until the job says it is no longer queued or running. */
async function runImport(csv: string, name = 'claims.csv') {
  const response = await call(ADMIN, 'POST', '/imports/', form(csv, name));
  expect(response.status).toBe(202);
  const started = (await response.json()) as { data: { id: string; attributes: { status: string } } };
  expect(started.data.attributes.status).toBe('queued');
  let run: any;
  for (;;) {
    run = ((await (await call(ADMIN, 'GET', `/imports/${started.data.id}/`)).json()) as any).data;
    if (run.attributes.status !== 'queued' && run.attributes.status !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const claims = ((await (await call(ADMIN, 'GET', `/imports/${run.id}/claims/`)).json()) as any).data.map(
    (d: any) => d.attributes,
  );
  return { run: run.attributes, id: run.id as string, claims };
}

async function claimCount() {
  const [row] = await server.atrium.database.db.select({ n: count() }).from(claim);
  return row!.n;
}

const entry = (type: string, amount: string, posted: string, extra: Cells = {}): Cells => ({
  entry_type: type,
  reserve_category: 'indemnity',
  amount,
  posted_date: posted,
  ...extra,
});

describe('the template', () => {
  it('downloads as CSV with every column and previews cleanly (round trip)', async () => {
    const response = await call(ADMIN, 'GET', '/imports/template/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="historical-claims-template.csv"');
    const text = await response.text();
    expect(text.split('\r\n')[0]).toBe(COLUMN_NAMES.join(','));
    const result = await preview(text);
    expect(result.problems).toEqual([]);
    expect(result).toMatchObject({
      can_import: true,
      rows: 5,
      claims: 2,
      claims_to_import: 2,
      exposures: 2,
      entries: 5,
      totals: { reserve_outstanding: '3749.50', paid: '4050.50', recovered: '400.00', total_incurred: '7800.00' },
    });
  });
});

describe('XLSX', () => {
  it('reads the first worksheet, with number and date cells, like the CSV', async () => {
    const template = await (await call(ADMIN, 'GET', '/imports/template/')).text();
    const lines = template
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Claims');
    const at = (name: string) => COLUMN_NAMES.indexOf(name as (typeof COLUMN_NAMES)[number]);
    sheet.addRow(lines[0]);
    for (const line of lines.slice(1)) {
      // Cells as a spreadsheet holds them: amounts as numbers, dates as dates.
      const cells: unknown[] = [...line];
      cells[at('amount')] = Number(line[at('amount')]);
      for (const column of ['date_of_loss', 'reported_date', 'posted_date']) {
        cells[at(column)] = new Date(`${line[at(column)]}T00:00:00Z`);
      }
      sheet.addRow(cells);
    }
    const bytes = Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const data = new FormData();
    data.append(
      'file',
      new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
      'history.xlsx',
    );
    const response = await call(ADMIN, 'POST', '/imports/preview/', data);
    expect(response.status).toBe(200);
    const result = ((await response.json()) as { data: { attributes: any } }).data.attributes;
    expect(result).toMatchObject({
      format: 'xlsx',
      problems: [],
      claims_to_import: 2,
      entries: 5,
      totals: { reserve_outstanding: '3749.50', paid: '4050.50', recovered: '400.00', total_incurred: '7800.00' },
    });
  });
});

describe('validation', () => {
  it('reports every problem by row and column in the spec’s words', async () => {
    const rows: Cells[] = [
      /* 2 */ claimRow('V-1', { product: 'Boat', ...entry('reserve', '100.00', '2024-03-05') }),
      /* 3 */ claimRow('V-2', { date_of_loss: '2024-02-30', ...entry('reserve', '100.00', '2024-03-05') }),
      /* 4 */ claimRow('V-3', entry('reserve', '-100.00', '2024-03-05')),
      /* 5 */ claimRow('V-4', entry('reserve', '100.00', '2024-03-05')),
      /* 6 */ claimRow('V-4', entry('payment', '100.01', '2024-03-06')),
      /* 7 */ claimRow('CLM-000011', entry('reserve', '100.00', '2024-03-05')),
      /* 8 */ claimRow('V-5', entry('reserve', '12.345', '2024-03-05')),
      /* 9 */ claimRow('V-6', entry('reserve', '1,000.00', '2024-03-05')),
      /* 10 */ claimRow('V-7', { reported_date: '2024-03-01', ...entry('reserve', '10.00', '03/05/2024') }),
      /* 11 */ claimRow('V-8', { claim_status: 'pending', adjuster: 'nobody@atrium.test' }),
      /* 12 */ claimRow('V-9', entry('payment', '0.00', '2024-03-05')),
      /* 13 */ claimRow('V-10', entry('refund', '10.00', '2024-03-05', { reserve_category: 'fees' })),
      /* 14 */ claimRow('V-11', entry('reserve', '10.00', '2024-01-01')),
      /* 15 */ claimRow('V-12', { policy_number: 'HO-1' }),
      /* 16 */ claimRow('V-12', { policy_number: 'HO-2' }),
      /* 17 */ claimRow('V-13', { exposure_number: 'one' }),
      /* 18 */ claimRow('', {}),
      /* 19 */ claimRow('V-14', { ...entry('recovery', '5.00', '2024-03-05'), final_payment: 'yes' }),
      /* 20 */ claimRow('V-15', { amount: '5.00' }),
      /* 21 */ claimRow('V-16', entry('reserve', '10.00', '2999-01-01')),
      /* 22 */ claimRow('V 17', entry('reserve', '10.00', '2024-03-05')),
      /* 23 */ claimRow('V-18', { ...entry('reserve', '10.00', '2024-03-05'), claimant_name: '' }),
      /* 24 */ claimRow('V-19', entry('reserve', '10.00', '2024-03-05')),
      /* 25 */ claimRow('V-19', entry('reserve', '10.00', '2024-03-06')),
      /* 26 */ claimRow('CLM-999999', entry('reserve', '10.00', '2024-03-05')),
      // Adjusters are claims users by role (not a list): the underwriter's role may not update
      // claims; the supervisor's may (named in another case; the row's only problem is its amount).
      /* 27 */ claimRow('V-20', { adjuster: 'underwriter@atrium.test', ...entry('reserve', '10.00', '2024-03-05') }),
      /* 28 */ claimRow('V-21', { adjuster: 'Supervisor@atrium.test', ...entry('reserve', '-5.00', '2024-03-05') }),
    ];
    const result = await preview(csvOf(rows));
    const seen = result.problems.map((p: any) => [p.row, p.column, p.message]);
    const expected: [number, string, string][] = [
      [2, 'product', "Unknown product 'Boat'. Products: Homeowners, Personal Auto."],
      [3, 'date_of_loss', "Date of loss must be a date as YYYY-MM-DD or MM/DD/YYYY, not '2024-02-30'."],
      [4, 'amount', 'A reserve cannot be negative: -100.00.'],
      [
        6,
        'amount',
        'The payment of 100.01 exceeds the open indemnity reserve of 100.00. Raise the reserve first (exposure 1, 2024-03-06).',
      ],
      [7, 'claim_number', 'Claim CLM-000011 already exists in Atrium.'],
      [8, 'amount', "Amount must be a decimal with at most 2 places such as 1234.50, not '12.345'."],
      [9, 'amount', "Amount must be a decimal with at most 2 places such as 1234.50, not '1,000.00'."],
      [10, 'reported_date', 'Reported date 2024-03-01 is before the date of loss 2024-03-02.'],
      [11, 'claim_status', "Claim status must be open, closed or reopened, not 'pending'."],
      [11, 'adjuster', "Unknown adjuster 'nobody@atrium.test'; name a claim user by user name."],
      [12, 'amount', 'A payment amount must be more than 0.00, not 0.00.'],
      [13, 'entry_type', "Entry type must be reserve, payment or recovery, not 'refund'."],
      [13, 'reserve_category', "Reserve category must be indemnity, expense, legal or medical, not 'fees'."],
      [14, 'posted_date', 'Posted date 2024-01-01 is before the date of loss 2024-03-02.'],
      [
        16,
        'policy_number',
        "Every row of claim V-12 must have the same policy number: row 15 has 'HO-1', this row 'HO-2'.",
      ],
      [17, 'exposure_number', "Exposure number must be a whole number from 1 to 9999, not 'one'."],
      [18, 'claim_number', 'Claim number is required.'],
      [19, 'final_payment', 'Final payment applies to payments only.'],
      [20, 'entry_type', 'Entry type is required when the row has an amount: reserve, payment or recovery.'],
      [21, 'posted_date', 'Posted date 2999-01-01 is in the future.'],
      [
        22,
        'claim_number',
        "Claim number must be 1 to 40 letters, digits, '.', '_' or '-' starting with a letter or digit, not 'V 17'.",
      ],
      [23, 'claimant_name', 'Claimant name is required.'],
      [25, 'amount', 'The indemnity reserve is already 10.00 (exposure 1, 2024-03-06).'],
      [
        26,
        'claim_number',
        "Claim number CLM-999999 has the form of the numbers Atrium gives new claims (CLM-000123); keep the old system's own prefix so that a new claim can never get the same number.",
      ],
      [27, 'adjuster', "Unknown adjuster 'underwriter@atrium.test'; name a claim user by user name."],
      [28, 'amount', 'A reserve cannot be negative: -5.00.'],
    ];
    for (const problem of expected) expect(seen).toContainEqual(problem);
    expect(seen).toHaveLength(expected.length);
    // Row 10's MM/DD/YYYY posted date is accepted; only its reported date is wrong.
    expect(result.problems.every((p: any) => p.claim_number !== null || p.row === 18)).toBe(true);
    expect(result.claims_with_problems).toBe(23);
    expect(result.claims_to_import).toBe(0);
    expect(result.can_import).toBe(false);
  });

  it('reports header problems and refuses to import such a file', async () => {
    const csv = csvOf([claimRow('H-1')], [...COLUMN_NAMES.filter((c) => c !== 'posted_date'), 'adjustor']);
    const result = await preview(csv);
    expect(result.problems.map((p: any) => [p.row, p.column, p.message])).toEqual([
      [1, 'adjustor', `Unknown column 'adjustor'. The columns are: ${COLUMN_NAMES.join(', ')}.`],
      [1, 'posted_date', "Column 'posted_date' is missing."],
    ]);
    expect(result.can_import).toBe(false);
    const [before] = await server.atrium.database.db.select({ n: count() }).from(importRun);
    const refused = await call(ADMIN, 'POST', '/imports/', form(csv));
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { errors: { detail: string }[] };
    expect(body.errors.map((e) => e.detail)).toContain("Column 'posted_date' is missing.");
    const [after] = await server.atrium.database.db.select({ n: count() }).from(importRun);
    expect(after!.n).toBe(before!.n);
  });

  it('refuses a zip bomb before parsing it: too many entries, or too large once expanded (413)', async () => {
    const bombs: [Buffer<ArrayBuffer>, string, string][] = [
      [
        await zipWithEntries(XLSX_LIMITS.maxEntries + 1),
        'too_many_entries',
        `The file holds ${XLSX_LIMITS.maxEntries + 1} entries; at most ${XLSX_LIMITS.maxEntries} are accepted.`,
      ],
      [
        // A 1 kB entry that declares 3 GB.
        declaringSize(await zipOfZeros(1000), 3_000_000_000),
        'expands_too_large',
        'The file expands to more than 100 MB; that is the most accepted.',
      ],
    ];
    for (const [bytes, code, detail] of bombs) {
      const data = new FormData();
      data.append(
        'file',
        new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
        'history.xlsx',
      );
      const response = await call(ADMIN, 'POST', '/imports/preview/', data);
      expect(response.status).toBe(413);
      const body = (await response.json()) as { errors: { detail: string; code: string; parameter: string }[] };
      expect(body.errors[0]).toMatchObject({ detail, code, parameter: 'file' });
    }
  });

  it('answers 400 without a file', async () => {
    const empty = new FormData();
    empty.append('note', 'no file');
    const response = await call(ADMIN, 'POST', '/imports/preview/', empty);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toBe(
      "Attach the historical claims file in the form field 'file'.",
    );
  });
});

describe('importing', () => {
  const hist1 = (extra: Cells) => claimRow('HIST-1', { adjuster: 'adjuster@atrium.test', ...extra });
  const goodFile = csvOf([
    hist1(entry('reserve', '5000.00', '2024-03-05')),
    hist1(entry('payment', '1250.50', '2024-04-01', { reference: 'CHK-1' })),
    hist1({
      exposure_number: '2',
      claimant_name: 'Lee Park',
      coverage: 'Liability',
      ...entry('reserve', '800.00', '2024-03-10', { reserve_category: 'expense' }),
    }),
    claimRow('HIST-2', {
      product: 'Personal Auto',
      claim_status: 'closed',
      coverage: 'Collision',
      ...entry('reserve', '3000.00', '2023-11-21'),
      date_of_loss: '2023-11-20',
      reported_date: '11/20/2023',
    }),
    claimRow('HIST-2', {
      product: 'Personal Auto',
      claim_status: 'closed',
      coverage: 'Collision',
      date_of_loss: '2023-11-20',
      reported_date: '11/20/2023',
      ...entry('payment', '2800.00', '2023-12-15', { final_payment: 'yes' }),
    }),
    claimRow('HIST-2', {
      product: 'Personal Auto',
      claim_status: 'closed',
      coverage: 'Collision',
      date_of_loss: '2023-11-20',
      reported_date: '11/20/2023',
      ...entry('recovery', '400.00', '2024-01-10'),
    }),
    claimRow('HIST-3', {}),
  ]);

  it('a dry run writes nothing', async () => {
    const db = server.atrium.database.db;
    const counts = async () => ({
      claims: await claimCount(),
      entries: (await db.select({ n: count() }).from(ledgerEntry))[0]!.n,
      audit: (await db.select({ n: count() }).from(auditLog))[0]!.n,
      runs: (await db.select({ n: count() }).from(importRun))[0]!.n,
    });
    const before = await counts();
    const result = await preview(goodFile);
    expect(result).toMatchObject({ claims_to_import: 3, exposures: 4, entries: 6, problems: [] });
    expect(await counts()).toEqual(before);
  });

  it('imports claims whose ledger totals are the file’s, on the original dates, then skips them on a re-run', async () => {
    const planned = await preview(goodFile);
    const { run, id, claims } = await runImport(goodFile, 'history.csv');
    expect(run).toMatchObject({
      status: 'completed',
      progress: '100.00',
      file_name: 'history.csv',
      created_by: ADMIN,
      claims_total: 3,
      claims_processed: 3,
      claims_imported: 3,
      claims_skipped: 0,
      claims_failed: 0,
      exposures_imported: 4,
      entries_imported: 6,
    });
    expect(claims.map((c: any) => [c.claim_number, c.outcome])).toEqual([
      ['HIST-1', 'imported'],
      ['HIST-2', 'imported'],
      ['HIST-3', 'imported'],
    ]);

    // The ledger derives the same totals the preview announced.
    const sums = { reserve_outstanding: 0n, paid: 0n, recovered: 0n, total_incurred: 0n };
    for (const c of claims) {
      const response = await call(ADMIN, 'GET', `/claims/${c.claim_id}/financials/`);
      const totals = ((await response.json()) as any).data.attributes;
      for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += BigInt(totals[key].replace('.', ''));
    }
    const money = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
    expect(Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, money(v)]))).toEqual(planned.totals);
    expect(planned.totals).toEqual({
      reserve_outstanding: '4549.50',
      paid: '4050.50',
      recovered: '400.00',
      total_incurred: '8600.00',
    });

    // The claim keeps its old number, is marked as imported and has its people and statuses.
    const hist2 = claims.find((c: any) => c.claim_number === 'HIST-2');
    const claimDoc = (await (await call(ADMIN, 'GET', `/claims/${hist2.claim_id}/`)).json()) as any;
    expect(claimDoc.data.attributes).toMatchObject({
      number: 'HIST-2',
      status: 'closed',
      policy_number: 'HO-77',
      fields: { source: 'import', import_run_id: Number(id) },
    });
    expect(claimDoc.data.attributes.date_of_loss).toMatch(/^2023-11-20/);
    const hist1 = claims.find((c: any) => c.claim_number === 'HIST-1');
    const hist1Doc = (await (await call(ADMIN, 'GET', `/claims/${hist1.claim_id}/`)).json()) as any;
    expect(hist1Doc.data.attributes.primary_adjuster).toBe('adjuster@atrium.test');

    // Entries and transactions keep the dates the old system posted them on.
    const db = server.atrium.database.db;
    const transactions = await db
      .select({
        type: ledgerTransaction.type,
        postedAt: ledgerTransaction.postedAt,
        details: ledgerTransaction.details,
      })
      .from(ledgerTransaction)
      .where(eq(ledgerTransaction.claimId, hist2.claim_id))
      .orderBy(ledgerTransaction.id);
    expect(transactions.map((t) => [t.type, t.postedAt!.toISOString().slice(0, 10)])).toEqual([
      ['reserve', '2023-11-21'],
      ['payment', '2023-12-15'],
      ['recovery', '2024-01-10'],
    ]);
    expect(transactions[0]!.details).toMatchObject({ source: 'import', original_posted_date: '2023-11-21' });
    const entryDates = await db
      .select({ postedAt: ledgerEntry.postedAt })
      .from(ledgerEntry)
      .where(eq(ledgerEntry.claimId, hist2.claim_id));
    expect(new Set(entryDates.map((e) => e.postedAt.toISOString().slice(0, 10)))).toEqual(
      new Set(['2023-11-21', '2023-12-15', '2024-01-10']),
    );

    // The same file again: every claim is skipped and nothing is duplicated.
    const before = await claimCount();
    const again = await runImport(goodFile, 'history.csv');
    expect(again.run).toMatchObject({ status: 'completed', claims_imported: 0, claims_skipped: 3, claims_failed: 0 });
    expect(again.claims.map((c: any) => c.detail)).toEqual([
      expect.stringMatching(/^Claim HIST-1 was imported by import run \d+; skipped\.$/),
      expect.stringMatching(/^Claim HIST-2 was imported by import run \d+; skipped\.$/),
      expect.stringMatching(/^Claim HIST-3 was imported by import run \d+; skipped\.$/),
    ]);
    expect(await claimCount()).toBe(before);
    const rePreview = await preview(goodFile);
    expect(rePreview).toMatchObject({ claims_to_import: 0, claims_skipped: 3, problems: [] });

    // Runs are listed newest first.
    const list = (await (await call(ADMIN, 'GET', '/imports/')).json()) as any;
    expect(list.data[0].id).toBe(again.id);
    expect(list.data[0].attributes).not.toHaveProperty('rows');
  });

  it('imports the good claims of a file and reports the bad one', async () => {
    const file = csvOf([
      claimRow('MIX-1', entry('reserve', '100.00', '2024-03-05')),
      claimRow('MIX-2', entry('reserve', '100.00', '2024-03-05')),
      claimRow('MIX-2', entry('payment', '150.00', '2024-03-06')),
      claimRow('MIX-3', entry('reserve', '300.00', '2024-03-05')),
    ]);
    const { run, claims } = await runImport(file);
    expect(run).toMatchObject({ status: 'completed', claims_imported: 2, claims_failed: 1, claims_skipped: 0 });
    expect(claims.map((c: any) => [c.claim_number, c.outcome])).toEqual([
      ['MIX-1', 'imported'],
      ['MIX-2', 'failed'],
      ['MIX-3', 'imported'],
    ]);
    expect(claims[1].detail).toBe(
      'Row 4, amount: The payment of 150.00 exceeds the open indemnity reserve of 100.00. Raise the reserve first (exposure 1, 2024-03-06).',
    );
    expect(run.problems).toContainEqual({
      row: 4,
      column: 'amount',
      claim_number: 'MIX-2',
      message:
        'The payment of 150.00 exceeds the open indemnity reserve of 100.00. Raise the reserve first (exposure 1, 2024-03-06).',
    });
    const written = await server.atrium.database.db
      .select({ number: claim.number })
      .from(claim)
      .where(inArray(claim.number, ['MIX-1', 'MIX-2', 'MIX-3']));
    expect(written.map((c) => c.number).sort()).toEqual(['MIX-1', 'MIX-3']);
  });
});

describe('permission', () => {
  it('is claims:import, which adjusters and underwriters do not have', async () => {
    const csv = csvOf([claimRow('P-1')]);
    for (const username of [ADJUSTER, 'underwriter@atrium.test']) {
      expect((await call(username, 'GET', '/imports/template/')).status).toBe(403);
      expect((await call(username, 'GET', '/imports/')).status).toBe(403);
      expect((await call(username, 'POST', '/imports/preview/', form(csv))).status).toBe(403);
      expect((await call(username, 'POST', '/imports/', form(csv))).status).toBe(403);
    }
    expect(await server.atrium.database.db.select().from(claim).where(eq(claim.number, 'P-1'))).toEqual([]);
  });
});
