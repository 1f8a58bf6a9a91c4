import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv, toCsv } from './csv.js';

describe('CSV', () => {
  it('quotes what needs quoting and reads it back', () => {
    const rows = [
      ['plain', 'with,comma', 'with "quotes"', 'two\r\nlines', ''],
      ['[{"sid":"A"}]', ' spaced ', 'é', 'x', 'y'],
    ];
    const text = toCsv(rows);
    expect(text).toBe('plain,"with,comma","with ""quotes""","two\r\nlines",\r\n"[{""sid"":""A""}]", spaced ,é,x,y\r\n');
    expect(parseCsv(text)).toEqual(rows);
  });

  it('accepts LF line ends, a byte-order mark and a missing final line break', () => {
    expect(parseCsv('\uFEFFa,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('refuses an unclosed quote and a stray one', () => {
    expect(() => parseCsv('a,"b\r\n')).toThrow(CsvError);
    expect(() => parseCsv('a,b"c\r\n')).toThrow(/line 1/);
  });
});
