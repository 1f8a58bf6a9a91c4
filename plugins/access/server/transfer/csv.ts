/**
 * RFC 4180 CSV: fields separated by commas, quoted with '"' when they hold a comma, a quote or a
 * line break, quotes doubled inside quotes. Enough for the access export file; not a general tool.
 */
export function toCsv(rows: (string | null | undefined)[][]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function csvField(value: string | null | undefined): string {
  const text = value ?? '';
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Rows of fields; a byte-order mark and a final line break are ignored. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let fieldStarted = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"') {
      if (fieldStarted && field !== '') throw new CsvError(`A quote inside an unquoted field on line ${line}.`, line);
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
      fieldStarted = false;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
      line++;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (quoted) throw new CsvError(`A quoted field is not closed (from line ${line}).`, line);
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}
