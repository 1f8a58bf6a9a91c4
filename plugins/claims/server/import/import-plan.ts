import { emptySums, type BucketSums } from '../ledger/balances.js';
import { RESERVE_CATEGORIES, type EntryDraft, type ReserveCategory } from '../ledger/ledger-entry.js';
import { formatMoney, parseMoney, type Cents } from '../ledger/money.js';
import { LedgerRuleError, planPayment, planRecovery, planReserve } from '../ledger/posting-rules.js';
import { COLUMN_NAMES, IMPORT_COLUMNS } from './import-file.js';
import type { ImportProblem } from './tables.js';

/**
 * The validation pass of a historical claims file (docs/claims-import.md). Pure: it gets the file's
 * cells and what it needs to know about Atrium (products, claim users, which of the file's claim
 * numbers exist and whether an import made them) and answers what an import would do — per claim
 * `import`, `skip` (an earlier import made it) or `problem` — with every problem by row and column.
 * The same plan is made for the dry run and again by the job, so the preview and the import agree.
 *
 * The ledger part replays each claim's entries in posted-date order through the ledger's own rules
 * (posting-rules.ts), so a payment the ledger would refuse is reported here, not half-way through
 * the import.
 */
export interface ImportReference {
  products: { id: number; name: string; label: string; policyTypeName: string }[];
  claimUsers: string[];
  /** The file's claim numbers that exist in Atrium, with the run that imported them (null: not imported). */
  existing: Map<string, { claimId: number; importedByRun: number | null }>;
  /** Today as YYYY-MM-DD (UTC): dates after it are in the future. */
  today: string;
  /** The prefix of the numbers Atrium gives new claims (`CLM` in CLM-000123). */
  claimPrefix: string;
}

export type EntryType = 'reserve' | 'payment' | 'recovery';
export type ImportStatus = 'open' | 'closed' | 'reopened';

export interface PlannedEntry {
  row: number;
  exposureNumber: number;
  type: EntryType;
  category: ReserveCategory;
  /** Reserve: the new reserve; payment and recovery: the amount. */
  amount: Cents;
  postedDate: string;
  finalPayment: boolean;
  reference: string;
  comments: string;
}

export interface PlannedExposure {
  number: number;
  row: number;
  claimantName: string;
  coverage: string;
  status: ImportStatus;
}

export interface PlannedClaim {
  number: string;
  firstRow: number;
  rowCount: number;
  policyNumber: string;
  productId: number | null;
  productName: string;
  policyType: string;
  dateOfLoss: string | null;
  reportedDate: string | null;
  location: { line1: string; city: string; state: string; zip: string } | null;
  lossDescription: string;
  status: ImportStatus;
  adjuster: string | null;
  exposures: PlannedExposure[];
  /** In posting order: posted date, then file order. */
  entries: PlannedEntry[];
  /** Per exposure and category after every entry (only meaningful when the claim has no problem). */
  sums: BucketSums;
  outcome: 'import' | 'skip' | 'problem';
  /** Why it is skipped. */
  detail: string | null;
  problems: ImportProblem[];
}

export interface ImportSummary {
  rows: number;
  claims: number;
  claims_to_import: number;
  claims_skipped: number;
  claims_with_problems: number;
  /** Exposures and entries of the claims to import. */
  exposures: number;
  entries: number;
  /** Ledger totals of the claims to import, as the ledger will derive them. */
  totals: { reserve_outstanding: string; paid: string; recovered: string; total_incurred: string };
}

export interface ImportPlan {
  /** Problems of the whole file (header) or of rows that belong to no claim. */
  fileProblems: ImportProblem[];
  /** The file cannot be imported at all (header problems); nothing is planned. */
  unreadable: boolean;
  claims: PlannedClaim[];
  problems: ImportProblem[];
  summary: ImportSummary;
}

export const MAX_DATA_ROWS = 50_000;

const LABEL: Record<string, string> = {
  claim_number: 'Claim number',
  policy_number: 'Policy number',
  product: 'Product',
  date_of_loss: 'Date of loss',
  reported_date: 'Reported date',
  loss_address: 'Loss address',
  loss_city: 'Loss city',
  loss_state: 'Loss state',
  loss_zip: 'Loss ZIP',
  loss_description: 'Loss description',
  claim_status: 'Claim status',
  adjuster: 'Adjuster',
  exposure_number: 'Exposure number',
  claimant_name: 'Claimant name',
  coverage: 'Coverage',
  exposure_status: 'Exposure status',
  entry_type: 'Entry type',
  reserve_category: 'Reserve category',
  amount: 'Amount',
  posted_date: 'Posted date',
  final_payment: 'Final payment',
  reference: 'Reference',
  comments: 'Comments',
};

const MAX_LENGTH: Record<string, number> = {
  policy_number: 50,
  loss_address: 200,
  loss_city: 100,
  loss_state: 50,
  loss_zip: 20,
  loss_description: 5000,
  claimant_name: 200,
  coverage: 200,
  reference: 100,
  comments: 2000,
};

const CLAIM_COLUMNS = [
  'policy_number',
  'product',
  'date_of_loss',
  'reported_date',
  'loss_address',
  'loss_city',
  'loss_state',
  'loss_zip',
  'loss_description',
  'claim_status',
  'adjuster',
] as const;
const EXPOSURE_COLUMNS = ['claimant_name', 'coverage', 'exposure_status'] as const;

const CLAIM_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const MONEY = /^-?\d{1,12}(\.\d{1,2})?$/;
const STATUSES: readonly ImportStatus[] = ['open', 'closed', 'reopened'];
const ENTRY_TYPES: readonly EntryType[] = ['reserve', 'payment', 'recovery'];
const YES = ['yes', 'y', 'true', '1'];
const NO = ['no', 'n', 'false', '0', ''];

/** 'YYYY-MM-DD' or 'MM/DD/YYYY' → 'YYYY-MM-DD'; null when it is no real date. */
export function parseImportDate(text: string): string | null {
  let y: number, m: number, d: number;
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else {
    match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
    if (!match) return null;
    [m, d, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1900) return null;
  return date.toISOString().slice(0, 10);
}

/** Header cells → column name; 'Claim Number' and 'claim number' both name claim_number. */
const normalise = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

interface Header {
  index: Map<string, number>;
  problems: ImportProblem[];
}

export function readHeader(grid: string[][]): Header {
  const problems: ImportProblem[] = [];
  const index = new Map<string, number>();
  const header = grid[0] ?? [];
  if (grid.length === 0 || header.every((cell) => cell.trim() === '')) {
    problems.push({
      row: 1,
      column: null,
      claim_number: null,
      message: 'The file is empty: the first row must name the columns.',
    });
    return { index, problems };
  }
  header.forEach((cell, i) => {
    if (cell.trim() === '') return;
    const name = normalise(cell);
    if (!COLUMN_NAMES.includes(name)) {
      problems.push({
        row: 1,
        column: cell.trim(),
        claim_number: null,
        message: `Unknown column '${cell.trim()}'. The columns are: ${COLUMN_NAMES.join(', ')}.`,
      });
    } else if (index.has(name)) {
      problems.push({ row: 1, column: name, claim_number: null, message: `Column '${name}' appears twice.` });
    } else index.set(name, i);
  });
  for (const column of IMPORT_COLUMNS) {
    if (column.required && !index.has(column.name)) {
      problems.push({
        row: 1,
        column: column.name,
        claim_number: null,
        message: `Column '${column.name}' is missing.`,
      });
    }
  }
  return { index, problems };
}

const isBlankRow = (row: string[] | undefined) => !row || row.every((cell) => (cell ?? '').trim() === '');

/** The claim numbers the file names (to ask the database which exist). */
export function claimNumbersOf(grid: string[][]): string[] {
  const { index } = readHeader(grid);
  const at = index.get('claim_number');
  if (at === undefined) return [];
  const numbers = new Set<string>();
  for (const row of grid.slice(1)) {
    const value = (row[at] ?? '').trim();
    if (value) numbers.add(value);
  }
  return [...numbers];
}

/** The distinct adjuster user names a file names (the reference checks only these). */
export function adjusterNamesOf(grid: string[][]): string[] {
  const { index } = readHeader(grid);
  const at = index.get('adjuster');
  if (at === undefined) return [];
  const names = new Set<string>();
  for (const row of grid.slice(1)) {
    const value = (row[at] ?? '').trim();
    if (value) names.add(value);
  }
  return [...names];
}

interface Row {
  number: number;
  get(column: string): string;
}

interface Draft {
  claim: PlannedClaim;
  firstValues: Map<string, { row: number; value: string }>;
  exposureValues: Map<number, Map<string, { row: number; value: string }>>;
  entryProblems: boolean;
}

export function planImport(grid: string[][], reference: ImportReference): ImportPlan {
  const header = readHeader(grid);
  const fileProblems = [...header.problems];
  const dataRows = grid.length - 1;
  if (dataRows > MAX_DATA_ROWS) {
    fileProblems.push({
      row: null,
      column: null,
      claim_number: null,
      message: `The file has ${dataRows} rows; load at most ${MAX_DATA_ROWS} rows at a time.`,
    });
  }
  if (fileProblems.length > 0) return finish(fileProblems, true, [], 0);

  const products = new Map<string, ImportReference['products'][number]>();
  for (const p of reference.products) {
    products.set(p.name.toLowerCase(), p);
    products.set(p.label.toLowerCase(), p);
  }
  const users = new Map(reference.claimUsers.map((u) => [u.toLowerCase(), u]));
  const drafts = new Map<string, Draft>();
  let rowCount = 0;

  for (let i = 1; i < grid.length; i++) {
    const cells = grid[i];
    if (isBlankRow(cells)) continue;
    rowCount++;
    const row: Row = {
      number: i + 1,
      get: (column) => {
        const at = header.index.get(column);
        return at === undefined ? '' : (cells![at] ?? '').trim();
      },
    };
    const number = row.get('claim_number');
    if (!number) {
      fileProblems.push(problem(row.number, 'claim_number', null, 'Claim number is required.'));
      continue;
    }
    let draft = drafts.get(number);
    if (!draft) {
      draft = newClaim(number, row, products, users, reference);
      drafts.set(number, draft);
    } else {
      draft.claim.rowCount++;
      sameAsFirst(draft, row);
    }
    planRow(draft, row, reference);
  }

  const claims = [...drafts.values()].map((draft) => settle(draft, reference));
  return finish(fileProblems, false, claims, rowCount);
}

/** `CLM-000123` for prefix `CLM`: the form of Atrium's own claim numbers (claim-numbers.ts). */
function isAtriumNumber(number: string, prefix: string): boolean {
  if (!number.startsWith(`${prefix}-`)) return false;
  return /^\d{6,}$/.test(number.slice(prefix.length + 1));
}

function problem(
  row: number | null,
  column: string | null,
  claimNumber: string | null,
  message: string,
): ImportProblem {
  return { row, column, claim_number: claimNumber, message };
}

function newClaim(
  number: string,
  row: Row,
  products: Map<string, ImportReference['products'][number]>,
  users: Map<string, string>,
  reference: ImportReference,
): Draft {
  const problems: ImportProblem[] = [];
  const add = (column: string, message: string) => problems.push(problem(row.number, column, number, message));
  if (!CLAIM_NUMBER.test(number)) {
    add(
      'claim_number',
      `Claim number must be 1 to 40 letters, digits, '.', '_' or '-' starting with a letter or digit, not '${number}'.`,
    );
  }
  const existing = reference.existing.get(number);
  if (existing && existing.importedByRun === null) add('claim_number', `Claim ${number} already exists in Atrium.`);
  else if (!existing && isAtriumNumber(number, reference.claimPrefix)) {
    // Atrium numbers new claims <prefix>-<6 digits> from a sequence: such a number would collide later.
    add(
      'claim_number',
      `Claim number ${number} has the form of the numbers Atrium gives new claims (${reference.claimPrefix}-000123); ` +
        "keep the old system's own prefix so that a new claim can never get the same number.",
    );
  }

  const policyNumber = required(row, 'policy_number', add);
  const productText = required(row, 'product', add);
  const product = productText ? products.get(productText.toLowerCase()) : undefined;
  if (productText && !product) {
    const names = [...new Set(reference.products.map((p) => p.name))].join(', ') || 'none';
    add('product', `Unknown product '${productText}'. Products: ${names}.`);
  }
  const dateOfLoss = date(row, 'date_of_loss', add, reference.today);
  const reportedDate = date(row, 'reported_date', add, reference.today);
  if (dateOfLoss && reportedDate && reportedDate < dateOfLoss) {
    add('reported_date', `Reported date ${reportedDate} is before the date of loss ${dateOfLoss}.`);
  }
  for (const column of ['loss_address', 'loss_city', 'loss_state', 'loss_zip', 'loss_description']) {
    tooLong(row, column, add);
  }
  const status = oneOf(row, 'claim_status', STATUSES, add, true) ?? 'open';
  const adjusterText = row.get('adjuster');
  let adjuster: string | null = null;
  if (adjusterText) {
    adjuster = users.get(adjusterText.toLowerCase()) ?? null;
    if (!adjuster) {
      add('adjuster', `Unknown adjuster '${adjusterText}'; name a claim user by user name.`);
    }
  }
  const location = ['loss_address', 'loss_city', 'loss_state', 'loss_zip'].some((c) => row.get(c))
    ? {
        line1: row.get('loss_address'),
        city: row.get('loss_city'),
        state: row.get('loss_state'),
        zip: row.get('loss_zip'),
      }
    : null;
  const firstValues = new Map<string, { row: number; value: string }>();
  for (const column of ['claim_number', ...CLAIM_COLUMNS])
    firstValues.set(column, { row: row.number, value: row.get(column) });
  return {
    claim: {
      number,
      firstRow: row.number,
      rowCount: 1,
      policyNumber,
      productId: product?.id ?? null,
      productName: product?.name ?? productText,
      policyType: product?.policyTypeName ?? '',
      dateOfLoss,
      reportedDate,
      location,
      lossDescription: row.get('loss_description'),
      status,
      adjuster,
      exposures: [],
      entries: [],
      sums: emptySums(),
      outcome: 'import',
      detail: null,
      problems,
    },
    firstValues,
    exposureValues: new Map(),
    entryProblems: false,
  };
}

/** Every row of a claim repeats the claim's columns; a different value is a problem at that cell. */
function sameAsFirst(draft: Draft, row: Row): void {
  for (const column of CLAIM_COLUMNS) {
    const first = draft.firstValues.get(column)!;
    const value = row.get(column);
    if (value !== first.value) {
      draft.claim.problems.push(
        problem(
          row.number,
          column,
          draft.claim.number,
          `Every row of claim ${draft.claim.number} must have the same ${LABEL[column]!.toLowerCase()}: row ${first.row} has '${first.value}', this row '${value}'.`,
        ),
      );
    }
  }
}

function planRow(draft: Draft, row: Row, reference: ImportReference): void {
  const claim = draft.claim;
  const add = (column: string, message: string) =>
    claim.problems.push(problem(row.number, column, claim.number, message));
  const before = claim.problems.length;

  // The exposure: its columns are given on its first row and repeated on the others.
  const numberText = row.get('exposure_number');
  let exposureNumber: number | null = null;
  if (!numberText) add('exposure_number', 'Exposure number is required.');
  else if (!/^\d{1,4}$/.test(numberText) || Number(numberText) < 1) {
    add('exposure_number', `Exposure number must be a whole number from 1 to 9999, not '${numberText}'.`);
  } else exposureNumber = Number(numberText);
  if (exposureNumber !== null) {
    const seen = draft.exposureValues.get(exposureNumber);
    if (!seen) {
      const claimantName = required(row, 'claimant_name', add);
      tooLong(row, 'coverage', add);
      const status =
        oneOf(row, 'exposure_status', STATUSES, add, false) ?? (claim.status === 'closed' ? 'closed' : 'open');
      claim.exposures.push({
        number: exposureNumber,
        row: row.number,
        claimantName,
        coverage: row.get('coverage'),
        status,
      });
      draft.exposureValues.set(
        exposureNumber,
        new Map(EXPOSURE_COLUMNS.map((c) => [c, { row: row.number, value: row.get(c) }])),
      );
    } else {
      for (const column of EXPOSURE_COLUMNS) {
        const first = seen.get(column)!;
        if (row.get(column) !== first.value) {
          add(
            column,
            `Every row of exposure ${exposureNumber} of claim ${claim.number} must have the same ${LABEL[column]!.toLowerCase()}: row ${first.row} has '${first.value}', this row '${row.get(column)}'.`,
          );
        }
      }
    }
  }

  // The financial entry, if the row has one.
  const typeText = row.get('entry_type').toLowerCase();
  const entryProblemsBefore = claim.problems.length;
  for (const column of ['reference', 'comments']) tooLong(row, column, add);
  if (!typeText) {
    if (row.get('amount') || row.get('posted_date') || row.get('reserve_category')) {
      add('entry_type', 'Entry type is required when the row has an amount: reserve, payment or recovery.');
    }
    if (row.get('final_payment') && !NO.includes(row.get('final_payment').toLowerCase())) {
      add('final_payment', 'Final payment applies to payments only.');
    }
    if (claim.problems.length > before) draft.entryProblems = true;
    return;
  }
  const type = oneOf(row, 'entry_type', ENTRY_TYPES, add, true);
  const category = oneOf(row, 'reserve_category', RESERVE_CATEGORIES, add, true);
  const amountText = row.get('amount');
  let amount: Cents | null = null;
  if (!amountText) add('amount', 'Amount is required.');
  else if (!MONEY.test(amountText)) {
    add('amount', `Amount must be a decimal with at most 2 places such as 1234.50, not '${amountText}'.`);
  } else {
    amount = parseMoney(amountText);
    if (type === 'reserve' && amount < 0n) add('amount', `A reserve cannot be negative: ${formatMoney(amount)}.`);
    else if (type && type !== 'reserve' && amount <= 0n) {
      add('amount', `A ${type} amount must be more than 0.00, not ${formatMoney(amount)}.`);
    }
  }
  const postedDate = date(row, 'posted_date', add, reference.today);
  if (postedDate && claim.dateOfLoss && postedDate < claim.dateOfLoss) {
    add('posted_date', `Posted date ${postedDate} is before the date of loss ${claim.dateOfLoss}.`);
  }
  const finalText = row.get('final_payment').toLowerCase();
  let finalPayment = false;
  if (YES.includes(finalText)) {
    if (type && type !== 'payment') add('final_payment', 'Final payment applies to payments only.');
    finalPayment = true;
  } else if (!NO.includes(finalText)) {
    add('final_payment', `Final payment must be yes or no, not '${row.get('final_payment')}'.`);
  }
  if (claim.problems.length > entryProblemsBefore || exposureNumber === null) {
    draft.entryProblems = true;
    return;
  }
  claim.entries.push({
    row: row.number,
    exposureNumber,
    type: type!,
    category: category!,
    amount: amount!,
    postedDate: postedDate!,
    finalPayment,
    reference: row.get('reference'),
    comments: row.get('comments'),
  });
}

/**
 * After all rows: order the entries by posted date (file order within a day) and replay them
 * through the ledger's rules. Skipped when a row of the claim already has a problem, so that one
 * bad amount does not echo as a string of "exceeds the reserve" problems after it.
 */
function settle(draft: Draft, reference: ImportReference): PlannedClaim {
  const claim = draft.claim;
  claim.entries.sort((a, b) => (a.postedDate < b.postedDate ? -1 : a.postedDate > b.postedDate ? 1 : a.row - b.row));
  claim.exposures.sort((a, b) => a.number - b.number);
  if (!draft.entryProblems) {
    const balances = new Map<string, BucketSums>();
    for (const entry of claim.entries) {
      const key = `${entry.exposureNumber}|${entry.category}`;
      const current = balances.get(key) ?? emptySums();
      const target = { claimId: 0, exposureId: entry.exposureNumber, category: entry.category };
      let drafts: EntryDraft[];
      try {
        drafts =
          entry.type === 'reserve'
            ? planReserve({ ...target, newAmount: entry.amount }, current)
            : entry.type === 'payment'
              ? planPayment({ ...target, amount: entry.amount, finalPayment: entry.finalPayment }, current)
              : planRecovery({ ...target, amount: entry.amount });
      } catch (error) {
        if (!(error instanceof LedgerRuleError)) throw error;
        const where = ` (exposure ${entry.exposureNumber}, ${entry.postedDate})`;
        claim.problems.push(problem(entry.row, 'amount', claim.number, error.message.replace(/\.$/, `${where}.`)));
        continue;
      }
      for (const d of drafts) {
        if (d.kind === 'payment') current.paid += d.amount;
        else if (d.kind === 'recovery') current.recovered += d.amount;
        else current.reserve += d.amount;
      }
      balances.set(key, current);
    }
    for (const sums of balances.values()) {
      claim.sums.reserve += sums.reserve;
      claim.sums.paid += sums.paid;
      claim.sums.recovered += sums.recovered;
    }
  }
  const existing = reference.existing.get(claim.number);
  if (existing && existing.importedByRun !== null) {
    // Imported before: re-running a file skips it, whatever its rows say now.
    claim.outcome = 'skip';
    claim.detail = `Claim ${claim.number} was imported by import run ${existing.importedByRun}; skipped.`;
    claim.problems = [];
  } else if (claim.problems.length > 0) {
    claim.outcome = 'problem';
  }
  claim.problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  return claim;
}

function finish(fileProblems: ImportProblem[], unreadable: boolean, claims: PlannedClaim[], rows: number): ImportPlan {
  const toImport = claims.filter((c) => c.outcome === 'import');
  const sums = emptySums();
  for (const c of toImport) {
    sums.reserve += c.sums.reserve;
    sums.paid += c.sums.paid;
    sums.recovered += c.sums.recovered;
  }
  const problems = [...fileProblems, ...claims.flatMap((c) => c.problems)].sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  return {
    fileProblems,
    unreadable,
    claims,
    problems,
    summary: {
      rows,
      claims: claims.length,
      claims_to_import: toImport.length,
      claims_skipped: claims.filter((c) => c.outcome === 'skip').length,
      claims_with_problems: claims.filter((c) => c.outcome === 'problem').length,
      exposures: toImport.reduce((n, c) => n + c.exposures.length, 0),
      entries: toImport.reduce((n, c) => n + c.entries.length, 0),
      totals: {
        reserve_outstanding: formatMoney(sums.reserve),
        paid: formatMoney(sums.paid),
        recovered: formatMoney(sums.recovered),
        total_incurred: formatMoney(sums.paid + sums.reserve),
      },
    },
  };
}

function required(row: Row, column: string, add: (column: string, message: string) => void): string {
  const value = row.get(column);
  if (!value) add(column, `${LABEL[column]} is required.`);
  else tooLong(row, column, add);
  return value;
}

function tooLong(row: Row, column: string, add: (column: string, message: string) => void): void {
  const max = MAX_LENGTH[column];
  if (max !== undefined && row.get(column).length > max)
    add(column, `${LABEL[column]} is longer than ${max} characters.`);
}

function date(row: Row, column: string, add: (column: string, message: string) => void, today: string): string | null {
  const text = row.get(column);
  if (!text) {
    add(column, `${LABEL[column]} is required.`);
    return null;
  }
  const value = parseImportDate(text);
  if (!value) {
    add(column, `${LABEL[column]} must be a date as YYYY-MM-DD or MM/DD/YYYY, not '${text}'.`);
    return null;
  }
  if (value > today) {
    add(column, `${LABEL[column]} ${value} is in the future.`);
    return null;
  }
  return value;
}

function oneOf<T extends string>(
  row: Row,
  column: string,
  allowed: readonly T[],
  add: (column: string, message: string) => void,
  isRequired: boolean,
): T | null {
  const text = row.get(column).toLowerCase();
  if (!text) {
    if (isRequired) add(column, `${LABEL[column]} is required.`);
    return null;
  }
  if ((allowed as readonly string[]).includes(text)) return text as T;
  const list = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
  add(column, `${LABEL[column]} must be ${list}, not '${row.get(column)}'.`);
  return null;
}
