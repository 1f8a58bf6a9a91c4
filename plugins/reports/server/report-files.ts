import type ExcelJS from 'exceljs';
import type { ReportResult } from '../shared/report-definitions.js';

/** ExcelJS (with its zip libraries) loads on the first export, not with the server (as lines and claims do). */
const loadExcelJs = async () => (await import('exceljs')).default;

/**
 * A report's result as a file: CSV (RFC 4180, CRLF, a BOM so spreadsheets read UTF-8) and XLSX (one
 * worksheet: a header row, the rows, the totals row). Money stays as its decimal text in CSV; in
 * XLSX it is a number cell formatted with two decimals (a spreadsheet sums it). Text that a
 * spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const safeText = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);

function cellText(value: string | number | null | undefined, kind: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  return kind === 'text' ? safeText(value) : value;
}

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function reportCsv(result: ReportResult): string {
  const lines = [result.columns.map((c) => csvField(c.label)).join(',')];
  for (const row of result.rows) {
    lines.push(result.columns.map((c) => csvField(cellText(row[c.key], c.kind))).join(','));
  }
  if (result.totals && result.rows.length) {
    lines.push(
      result.columns
        .map((c, i) => csvField(i === 0 ? 'Total' : cellText(result.totals?.[c.key] ?? null, c.kind)))
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

function xlsxValue(value: string | number | null | undefined, kind: string): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  if (kind === 'money' || kind === 'integer' || kind === 'percent') {
    const number = Number(value);
    return Number.isFinite(number) ? number : String(value);
  }
  return typeof value === 'number' ? value : safeText(value);
}

export async function reportXlsx(result: ReportResult): Promise<Buffer> {
  const ExcelJs = await loadExcelJs();
  const workbook = new ExcelJs.Workbook();
  workbook.creator = 'Atrium';
  const sheet = workbook.addWorksheet(result.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  sheet.columns = result.columns.map((c) => ({
    header: c.label,
    key: c.key,
    width: Math.max(12, c.label.length + 2),
    style: c.kind === 'money' ? { numFmt: '#,##0.00' } : c.kind === 'percent' ? { numFmt: '0.0' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of result.rows) {
    sheet.addRow(Object.fromEntries(result.columns.map((c) => [c.key, xlsxValue(row[c.key], c.kind)])));
  }
  if (result.totals && result.rows.length) {
    const totals = sheet.addRow(
      Object.fromEntries(
        result.columns.map((c, i) => [c.key, i === 0 ? 'Total' : xlsxValue(result.totals?.[c.key] ?? null, c.kind)]),
      ),
    );
    totals.font = { bold: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
