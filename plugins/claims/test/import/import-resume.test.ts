import { describe, expect, it } from 'vitest';
import { COLUMN_NAMES } from '../../server/import/import-file.js';
import { planImport, type ImportReference } from '../../server/import/import-plan.js';
import { resumeStateOf, type RecordedOutcome } from '../../server/import/import-resume.js';

/** Where a resumed run stands: what is left to do, its counts and its problems, from its outcome rows. */
const reference = (existing: ImportReference['existing'] = new Map()): ImportReference => ({
  products: [{ id: 1, name: 'Homeowners', label: 'Homeowners', policyTypeName: 'Homeowners' }],
  claimUsers: [],
  existing,
  today: '2026-11-22',
  claimPrefix: 'CLM',
});

function grid(rows: Record<string, string>[]): string[][] {
  const base = {
    policy_number: 'HO-1',
    product: 'Homeowners',
    date_of_loss: '2024-03-02',
    reported_date: '2024-03-04',
    claim_status: 'open',
    exposure_number: '1',
    claimant_name: 'Pat Morgan',
  };
  return [[...COLUMN_NAMES], ...rows.map((r) => COLUMN_NAMES.map((c) => ({ ...base, ...r })[c] ?? ''))];
}

const file = grid([
  /* 2 */ {
    claim_number: 'A-1',
    entry_type: 'reserve',
    reserve_category: 'indemnity',
    amount: '10.00',
    posted_date: '2024-03-05',
  },
  /* 3 */ {
    claim_number: 'A-2',
    entry_type: 'reserve',
    reserve_category: 'indemnity',
    amount: '-1.00',
    posted_date: '2024-03-05',
  },
  /* 4 */ { claim_number: 'A-3' },
  /* 5 */ {
    claim_number: 'A-4',
    entry_type: 'reserve',
    reserve_category: 'indemnity',
    amount: '5.00',
    posted_date: '2024-03-05',
  },
  /* 6 */ { claim_number: 'A-5' },
]);

const outcome = (claimNumber: string, o: string, firstRow: number, detail: string | null = null): RecordedOutcome => ({
  claimNumber,
  outcome: o,
  firstRow,
  exposures: 1,
  entries: o === 'imported' ? 1 : 0,
  detail,
});

describe('resumeStateOf', () => {
  it('a run without outcomes has every claim to do and the plan’s problems', () => {
    const plan = planImport(file, reference());
    const state = resumeStateOf(plan, []);
    expect(state.pending.map((c) => c.number)).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'A-5']);
    expect(state.counts).toEqual({ processed: 0, imported: 0, skipped: 0, failed: 0, exposures: 0, entries: 0 });
    expect(state.problems).toEqual(plan.problems);
  });

  it('leaves out the claims with an outcome, counts them, and keeps the problems an uninterrupted run lists', () => {
    // A-1 was imported by this run (run 7), A-2 failed its validation, A-3 failed when written.
    const plan = planImport(file, reference(new Map([['A-1', { claimId: 40, importedByRun: 7 }]])));
    const writeFailure = 'Claim A-3 already exists in Atrium.';
    const state = resumeStateOf(plan, [
      outcome('A-1', 'imported', 2),
      outcome('A-2', 'failed', 3, 'Row 3, amount: A reserve cannot be negative: -1.00.'),
      outcome('A-3', 'failed', 4, writeFailure),
    ]);
    expect(state.pending.map((c) => c.number)).toEqual(['A-4', 'A-5']);
    expect(state.counts).toEqual({ processed: 3, imported: 1, skipped: 0, failed: 2, exposures: 1, entries: 1 });
    expect(state.problems).toEqual([
      { row: 3, column: 'amount', claim_number: 'A-2', message: 'A reserve cannot be negative: -1.00.' },
      { row: 4, column: null, claim_number: 'A-3', message: writeFailure },
    ]);
  });
});
