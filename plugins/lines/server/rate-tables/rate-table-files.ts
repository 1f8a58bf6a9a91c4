import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type ExcelJS from 'exceljs';
import { checkZipExpansion, XLSX_LIMITS } from '@atrium/sdk/server';

/** ExcelJS (with its zip libraries) loads on the first workbook, not with the server (0.4-0.7 s of every start, P8). */
const loadExcelJs = async () => (await import('exceljs')).default;

/**
 * Rate-table grids in and out of files: CSV (comma), TSV (tab, also what a spreadsheet puts on the
 * clipboard) and XLSX (the first worksheet). Every cell is read as text; numbers are kept as the
 * decimal text the cell shows, never through a float round trip of our own.
 */
export type GridFormat = 'csv' | 'tsv' | 'xlsx';

export class GridFileError extends Error {}

export function parseDelimited(text: string, delimiter: ',' | '\t'): string[][] {
  const source = text.replace(/^\uFEFF/, '');
  try {
    return parse(source, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      trim: false,
    }) as string[][];
  } catch (error) {
    throw new GridFileError(
      `The ${delimiter === ',' ? 'CSV' : 'tab-separated'} text cannot be read: ${(error as Error).message}`,
    );
  }
}

export function writeDelimited(grid: string[][], delimiter: ',' | '\t'): string {
  return stringify(grid, { delimiter, record_delimiter: delimiter === ',' ? '\r\n' : '\n' });
}

/** The cells of an XLSX workbook's first worksheet, as text. */
export async function readXlsx(data: Buffer | Uint8Array): Promise<string[][]> {
  // A zip bomb is refused (413) before ExcelJS inflates anything (docs/security.md).
  await checkZipExpansion(data, XLSX_LIMITS);
  const workbook = new (await loadExcelJs()).Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch (error) {
    throw new GridFileError(`The file is not an XLSX workbook: ${(error as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new GridFileError('The workbook has no worksheet');
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
  if (typeof value === 'number') return numberCellText(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('result' in value && value.result !== undefined) return cellText(value.result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value) return String(value.text);
    if ('error' in value) return String(value.error);
  }
  return String(value);
}

/** Shortest text of a number cell (Excel stores numbers as doubles; 0.1 reads back as `0.1`). */
function numberCellText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/**
 * A workbook with one worksheet holding the grid. Numeric cells are written as text so that decimal
 * values keep every digit (a spreadsheet still shows them as numbers to the eye and reads them back).
 */
export async function writeXlsx(grid: string[][], sheetName: string): Promise<Buffer> {
  const workbook = new (await loadExcelJs()).Workbook();
  const sheet = workbook.addWorksheet(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Rate table');
  for (const line of grid) sheet.addRow(line);
  sheet.getRow(1).font = { bold: true };
  const buffer = await workbook.xlsx.writeBuffer();
  return Buffer.from(buffer as ArrayBuffer);
}

/** Reads an uploaded file by its name or content type (XLSX, TSV, else CSV). */
export async function readGridFile(
  data: Buffer,
  file: { filename?: string; contentType?: string },
): Promise<{ grid: string[][]; format: GridFormat }> {
  const name = (file.filename ?? '').toLowerCase();
  const type = (file.contentType ?? '').toLowerCase();
  const isZip = data.length >= 2 && data[0] === 0x50 && data[1] === 0x4b;
  if (name.endsWith('.xlsx') || type.includes('spreadsheetml') || isZip) {
    return { grid: await readXlsx(data), format: 'xlsx' };
  }
  const text = data.toString('utf8');
  if (name.endsWith('.tsv') || name.endsWith('.txt') || type.includes('tab-separated')) {
    return { grid: parseDelimited(text, '\t'), format: 'tsv' };
  }
  return { grid: parseDelimited(text, ','), format: 'csv' };
}
