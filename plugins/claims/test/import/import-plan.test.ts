import { describe, expect, it } from 'vitest';
import { COLUMN_NAMES } from '../../server/import/import-file.js';
import { parseImportDate, planImport, type ImportReference } from '../../server/import/import-plan.js';

/** The validation pass on its own: dates, posting order, skips, and what is left out of the totals. */
const reference = (existing: ImportReference['existing'] = new Map()): ImportReference => ({
  products: [{ id: 1, name: 'Homeowners', label: 'Homeowners', policyTypeName: 'Homeowners' }],
  claimUsers: ['adjuster@atrium.test'],
  existing,
  today: '2026-11-22',
  claimPrefix: 'CLM',
});

function grid(rows: Record<string, string>[]): string[][] {
  const base = {
    policy_number: 'HO-1',
    product: 'homeowners',
    date_of_loss: '2024-03-02',
    reported_date: '2024-03-04',
    claim_status: 'open',
    exposure_number: '1',
    claimant_name: 'Pat Morgan',
    reserve_category: 'indemnity',
  };
  return [[...COLUMN_NAMES], ...rows.map((r) => COLUMN_NAMES.map((c) => ({ ...base, ...r })[c] ?? ''))];
}

describe('parseImportDate', () => {
  it('reads ISO and US dates and refuses days that do not exist', () => {
    expect(parseImportDate('2024-02-29')).toBe('2024-02-29');
    expect(parseImportDate('2/29/2024')).toBe('2024-02-29');
    expect(parseImportDate('2023-02-29')).toBeNull();
    expect(parseImportDate('13/01/2024')).toBeNull();
    expect(parseImportDate('2024-3-1')).toBeNull();
    expect(parseImportDate('yesterday')).toBeNull();
  });
});

describe('planImport', () => {
  it('posts a claim’s entries in posted-date order, whatever the file order', () => {
    const plan = planImport(
      grid([
        { claim_number: 'A-1', entry_type: 'payment', amount: '40.00', posted_date: '2024-04-01' },
        { claim_number: 'A-1', entry_type: 'reserve', amount: '100', posted_date: '03/05/2024' },
        { claim_number: 'A-1', entry_type: 'reserve', amount: '0.00', posted_date: '2024-05-01' },
      ]),
      reference(),
    );
    expect(plan.problems).toEqual([]);
    expect(plan.claims[0]!.entries.map((e) => [e.type, e.postedDate])).toEqual([
      ['reserve', '2024-03-05'],
      ['payment', '2024-04-01'],
      ['reserve', '2024-05-01'],
    ]);
    expect(plan.summary.totals).toEqual({
      reserve_outstanding: '0.00',
      paid: '40.00',
      recovered: '0.00',
      total_incurred: '40.00',
    });
  });

  it('skips a claim an import made, reports one that exists otherwise, and counts neither in the totals', () => {
    const plan = planImport(
      grid([
        { claim_number: 'OLD-1', entry_type: 'reserve', amount: '10.00', posted_date: '2024-03-05' },
        { claim_number: 'CLM-000001', entry_type: 'reserve', amount: '20.00', posted_date: '2024-03-05' },
        { claim_number: 'NEW-1', entry_type: 'reserve', amount: '30.00', posted_date: '2024-03-05' },
        { claim_number: 'CLM-000999', entry_type: 'reserve', amount: '40.00', posted_date: '2024-03-05' },
        { claim_number: 'CLM-A1', entry_type: 'reserve', amount: '50.00', posted_date: '2024-03-05' },
      ]),
      reference(
        new Map([
          ['OLD-1', { claimId: 7, importedByRun: 3 }],
          ['CLM-000001', { claimId: 1, importedByRun: null }],
        ]),
      ),
    );
    expect(plan.claims.map((c) => [c.number, c.outcome, c.detail])).toEqual([
      ['OLD-1', 'skip', 'Claim OLD-1 was imported by import run 3; skipped.'],
      ['CLM-000001', 'problem', null],
      ['NEW-1', 'import', null],
      ['CLM-000999', 'problem', null],
      ['CLM-A1', 'import', null],
    ]);
    expect(plan.claims[1]!.problems.map((p) => p.message)).toEqual(['Claim CLM-000001 already exists in Atrium.']);
    expect(plan.claims[3]!.problems.map((p) => p.message)).toEqual([
      "Claim number CLM-000999 has the form of the numbers Atrium gives new claims (CLM-000123); keep the old system's own prefix so that a new claim can never get the same number.",
    ]);
    expect(plan.summary).toMatchObject({ claims_to_import: 2, claims_skipped: 1, claims_with_problems: 2, entries: 2 });
    expect(plan.summary.totals.reserve_outstanding).toBe('80.00');
  });

  it('does not echo one bad amount as ledger problems on the rows after it', () => {
    const plan = planImport(
      grid([
        { claim_number: 'B-1', entry_type: 'reserve', amount: '1O0.00', posted_date: '2024-03-05' },
        { claim_number: 'B-1', entry_type: 'payment', amount: '50.00', posted_date: '2024-03-06' },
      ]),
      reference(),
    );
    expect(plan.problems.map((p) => [p.row, p.column])).toEqual([[2, 'amount']]);
  });
});
