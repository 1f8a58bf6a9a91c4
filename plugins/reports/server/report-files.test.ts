import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../shared/report-definitions.js';
import { reportCsv, reportXlsx } from './report-files.js';

const result: ReportResult = {
  title: 'Loss run by policy: HO-1',
  columns: [
    { key: 'claim', label: 'Claim', kind: 'text' },
    { key: 'note', label: 'Note, quoted', kind: 'text' },
    { key: 'paid', label: 'Paid', kind: 'money' },
  ],
  rows: [
    { claim: 'CLM-1', note: 'Roof "hail", east side', paid: '1234.50' },
    { claim: 'CLM-2', note: '=HYPERLINK("http://x")', paid: '-20.00' },
  ],
  totals: { paid: '1214.50' },
  summary: [],
  chart: null,
};

describe('report files', () => {
  it('writes CSV with quoting, a BOM, CRLF, formula-looking text defused and a Total line', () => {
    const csv = reportCsv(result);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Claim,"Note, quoted",Paid',
      'CLM-1,"Roof ""hail"", east side",1234.50',
      `CLM-2,"'=HYPERLINK(""http://x"")",-20.00`,
      'Total,,1214.50',
      '',
    ]);
  });

  it('writes XLSX with a header, money as numbers and a Total row', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await reportXlsx(result)) as never);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Loss run by policy  HO-1'); // ':' may not stand in a sheet name
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['Claim', 'Note, quoted', 'Paid'],
      ['CLM-1', 'Roof "hail", east side', 1234.5],
      ['CLM-2', `'=HYPERLINK("http://x")`, -20],
      ['Total', undefined, 1214.5],
    ]);
  });
});
