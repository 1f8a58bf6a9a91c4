import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { declaringSize, zipOfZeros, zipWithEntries } from '../testing/zip-bombs.js';
import { checkZipExpansion, XLSX_LIMITS, ZipExpansionError } from './zip-expansion.js';

const small = { maxEntries: 20, maxExpandedBytes: 1024 * 1024 };

async function refusal(data: Buffer, limits = small): Promise<ZipExpansionError> {
  const error = await checkZipExpansion(data, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ZipExpansionError);
  return error as ZipExpansionError;
}

describe('checkZipExpansion', () => {
  it('passes an ordinary workbook and anything that is no archive at all (the parser reports that)', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet1').addRow(['claim_number', 'amount']);
    const bytes = Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    await expect(checkZipExpansion(bytes, XLSX_LIMITS)).resolves.toBeUndefined();
    await expect(checkZipExpansion(Buffer.from('PK not really a zip'), small)).resolves.toBeUndefined();
    await expect(checkZipExpansion(await zipOfZeros(1024 * 1024), small)).resolves.toBeUndefined();
  });

  it('refuses more entries than the limit (413, too_many_entries)', async () => {
    const error = await refusal(await zipWithEntries(21));
    expect(error).toMatchObject({ status: 413, code: 'too_many_entries' });
    expect(error.message).toBe('The file holds 21 entries; at most 20 are accepted.');
    await expect(checkZipExpansion(await zipWithEntries(20), small)).resolves.toBeUndefined();
  });

  it('refuses an archive that declares more than the limit, before inflating anything (413)', async () => {
    const archive = declaringSize(await zipOfZeros(1000), 4_000_000_000);
    const error = await refusal(archive);
    expect(error).toMatchObject({ status: 413, code: 'expands_too_large' });
    expect(error.message).toBe('The file expands to more than 1 MB; that is the most accepted.');
    expect(error.issues[0]?.source).toEqual({ parameter: 'file' });
  });

  it('refuses an honest archive that inflates past the limit (413)', async () => {
    const error = await refusal(await zipOfZeros(1024 * 1024 + 1));
    expect(error).toMatchObject({ status: 413, code: 'expands_too_large' });
  });

  it('stops inflating an entry at the size it declares: one that lies is malformed (400)', async () => {
    // 8 MB of zeros (8 kB deflated) declared as 10 bytes: stopped at the first chunk past 10 bytes.
    const archive = declaringSize(await zipOfZeros(8 * 1024 * 1024), 10);
    const error = await refusal(archive, XLSX_LIMITS);
    expect(error).toMatchObject({ status: 400, code: 'entry_larger_than_declared' });
    expect(error.message).toBe(
      "The file is malformed: 'xl/worksheets/sheet1.xml' inside it is larger than the archive declares.",
    );
  });
});
