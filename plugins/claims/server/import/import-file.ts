import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type ExcelJS from 'exceljs';
import { checkZipExpansion, XLSX_LIMITS } from '@atrium/sdk/server';

/** ExcelJS (with its zip libraries) loads on the first workbook, not with the server (0.4-0.7 s of every start, P8). */
const loadExcelJs = async () => (await import('exceljs')).default;

/**
 * The historical claims file (docs/claims-import.md): one flat table, one row per financial entry,
 * the claim's and the exposure's columns repeated on each of their rows. A claim or exposure with
 * no money yet is one row with the entry columns left empty. CSV (UTF-8, comma) or XLSX (the first
 * worksheet); every cell is read as text, so amounts keep the digits the file has.
 */
export interface ImportColumn {
  name: string;
  required: boolean;
  /** What the column holds, for the docs and the template's second line. */
  description: string;
}

export const IMPORT_COLUMNS: readonly ImportColumn[] = [
  { name: 'claim_number', required: true, description: 'The claim number in the old system; it stays the number.' },
  { name: 'policy_number', required: true, description: 'The policy the claim is under.' },
  { name: 'product', required: true, description: 'A claims product name or label (Homeowners).' },
  { name: 'date_of_loss', required: true, description: 'YYYY-MM-DD or MM/DD/YYYY.' },
  { name: 'reported_date', required: true, description: 'YYYY-MM-DD or MM/DD/YYYY, not before the loss.' },
  { name: 'loss_address', required: false, description: 'Street line of the loss location.' },
  { name: 'loss_city', required: false, description: 'City of the loss location.' },
  { name: 'loss_state', required: false, description: 'State of the loss location (IL).' },
  { name: 'loss_zip', required: false, description: 'ZIP code of the loss location.' },
  { name: 'loss_description', required: false, description: 'What happened.' },
  { name: 'claim_status', required: true, description: 'open, closed or reopened.' },
  { name: 'adjuster', required: false, description: "A claim user's user name; empty leaves the claim pending." },
  { name: 'exposure_number', required: true, description: '1, 2, 3 … within the claim.' },
  { name: 'claimant_name', required: true, description: 'The claimant of the exposure.' },
  { name: 'coverage', required: false, description: 'The coverage the exposure is under (Dwelling).' },
  { name: 'exposure_status', required: false, description: "open, closed or reopened; empty: the claim's." },
  { name: 'entry_type', required: true, description: 'reserve, payment or recovery; empty for no money.' },
  { name: 'reserve_category', required: true, description: 'indemnity, expense, legal or medical.' },
  { name: 'amount', required: true, description: 'A reserve: the new reserve (≥ 0). Else the amount (> 0).' },
  { name: 'posted_date', required: true, description: 'When the entry was posted in the old system.' },
  { name: 'final_payment', required: false, description: 'yes closes the rest of the reserve (payments only).' },
  { name: 'reference', required: false, description: 'The old system’s reference (check number …).' },
  { name: 'comments', required: false, description: 'Free text kept with the entry.' },
];

export const COLUMN_NAMES = IMPORT_COLUMNS.map((c) => c.name);

export class ImportFileError extends Error {}

export type ImportFormat = 'csv' | 'xlsx';

/** The file's cells as text, header first; rows of only empty cells are kept (row numbers stay the file's). */
export async function readImportFile(
  data: Buffer,
  file: { filename?: string; contentType?: string },
): Promise<{ grid: string[][]; format: ImportFormat }> {
  const name = (file.filename ?? '').toLowerCase();
  const type = (file.contentType ?? '').toLowerCase();
  const isZip = data.length >= 2 && data[0] === 0x50 && data[1] === 0x4b;
  if (name.endsWith('.xlsx') || type.includes('spreadsheetml') || isZip) {
    return { grid: await readXlsx(data), format: 'xlsx' };
  }
  return { grid: readCsv(data.toString('utf8')), format: 'csv' };
}

function readCsv(text: string): string[][] {
  try {
    return parse(text.replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      skip_empty_lines: false,
      trim: false,
    }) as string[][];
  } catch (error) {
    throw new ImportFileError(`The CSV file cannot be read: ${(error as Error).message}`);
  }
}

async function readXlsx(data: Buffer): Promise<string[][]> {
  // A zip bomb is refused (413) before ExcelJS inflates anything (docs/security.md).
  await checkZipExpansion(data, XLSX_LIMITS);
  const workbook = new (await loadExcelJs()).Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch (error) {
    throw new ImportFileError(`The file is not an XLSX workbook: ${(error as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new ImportFileError('The workbook has no worksheet.');
  const grid: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const line: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      line[column - 1] = cellText(cell.value);
    });
    grid[rowNumber - 1] = Array.from(line, (c) => c ?? '');
  });
  return Array.from(grid, (line) => line ?? []);
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  // A number cell holds a double; its shortest text is what the sheet shows (1234.5 stays 1234.5).
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('result' in value && value.result !== undefined) return cellText(value.result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value) return String(value.text);
  }
  return String(value);
}

/** Example rows of the template: an open homeowners claim with history and a closed auto claim. */
const TEMPLATE_ROWS: string[][] = [
  // prettier-ignore
  ['LEG-1001', 'HO-2024-0042', 'Homeowners', '2024-03-02', '2024-03-04', '12 Elm St', 'Springfield', 'IL', '62701',
    'Kitchen fire', 'open', '', '1', 'Pat Morgan', 'Dwelling', '', 'reserve', 'indemnity', '5000.00', '2024-03-05',
    '', '', 'Initial reserve'],
  // prettier-ignore
  ['LEG-1001', 'HO-2024-0042', 'Homeowners', '2024-03-02', '2024-03-04', '12 Elm St', 'Springfield', 'IL', '62701',
    'Kitchen fire', 'open', '', '1', 'Pat Morgan', 'Dwelling', '', 'payment', 'indemnity', '1250.50', '2024-04-01',
    'no', 'CHK-88812', 'Contractor deposit'],
  // prettier-ignore
  ['LEG-1002', 'PA-2023-0917', 'Personal Auto', '2023-11-20', '2023-11-20', '', 'Peoria', 'IL', '61602',
    'Rear-ended at a light', 'closed', '', '1', 'Sam Lee', '', '', 'reserve', 'indemnity', '3000.00', '2023-11-21',
    '', '', ''],
  // prettier-ignore
  ['LEG-1002', 'PA-2023-0917', 'Personal Auto', '2023-11-20', '2023-11-20', '', 'Peoria', 'IL', '61602',
    'Rear-ended at a light', 'closed', '', '1', 'Sam Lee', '', '', 'payment', 'indemnity', '2800.00', '2023-12-15',
    'yes', 'CHK-77001', 'Final settlement'],
  // prettier-ignore
  ['LEG-1002', 'PA-2023-0917', 'Personal Auto', '2023-11-20', '2023-11-20', '', 'Peoria', 'IL', '61602',
    'Rear-ended at a light', 'closed', '', '1', 'Sam Lee', '', '', 'recovery', 'indemnity', '400.00', '2024-01-10',
    '', 'SUB-4410', 'Subrogation from the other carrier'],
];

/** The downloadable template: the header and the example rows (delete them before loading your own). */
export function templateCsv(): string {
  return stringify([[...COLUMN_NAMES], ...TEMPLATE_ROWS], { record_delimiter: '\r\n' });
}

export function toCsv(grid: string[][]): string {
  return stringify(grid, { record_delimiter: '\r\n' });
}
