import { afterAll, describe, expect, it } from 'vitest';
import { pdfToText } from '../../test/pdf-pages.js';
import { RenderPool } from './pool.js';

/** The helper functions every template imports (helpers.typ), rendered by a real child and read back. */
const pool = new RenderPool({ size: 1 });
afterAll(() => pool.close());

async function textOf(source: string): Promise<string> {
  const result = await pool.render({ source, data: '{}', format: 'pdf', timestamp: 0 });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return pdfToText(result.pdf!).trim();
}

describe('helper functions', () => {
  it('formats money from decimal strings, rounding half up to cents, with thousands separators', async () => {
    const out = await textOf(
      '#formatCurrency("1284.5")|#formatCurrency("1234567.125")|#formatCurrency("-12")|#formatCurrency("-0.004")|#formatCurrency("0.995")|#formatCurrency("350000.00", symbol: "EUR ")|#formatCurrency("")|#formatCurrency(none)',
    );
    expect(out).toBe('$1,284.50|$1,234,567.13|-$12.00|$0.00|$1.00|EUR 350,000.00|—|—');
  });
  it('formats dates and pluralizes', async () => {
    const out = await textOf(
      '#formatDate("2026-03-01")|#formatDate("2026-12-25", style: "short")|#formatDate("2026-03-01T10:00:00Z", style: "iso")|#pluralize(4, "coverage")|#pluralize(1, "policy", plural: "policies")|#pluralize("0", "policy", plural: "policies")',
    );
    expect(out).toBe('March 1, 2026|Dec 25, 2026|2026-03-01|4 coverages|1 policy|0 policies');
  });
});
