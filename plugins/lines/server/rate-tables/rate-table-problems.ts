/**
 * A problem with a rate table's rows, named by row and column so a user can find the cell.
 * `row` is 1-based: in a paste or a file it is the spreadsheet row (the header is row 1), in a JSON
 * body it is the position in `rows` (the first row is 1). `column` is the key column or `value`.
 */
export interface RateTableProblem {
  row?: number;
  column?: string;
  message: string;
}

export function problemText(problem: { row?: number; column?: string }, message: string): string {
  const where = [
    problem.row !== undefined ? `Row ${problem.row}` : null,
    problem.column !== undefined ? `column '${problem.column}'` : null,
  ].filter(Boolean);
  if (where.length === 0) return message;
  const text = where.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}: ${message}`;
}

export function rateTableProblem(row: number | undefined, column: string | undefined, message: string) {
  const problem: RateTableProblem = { message: '' };
  if (row !== undefined) problem.row = row;
  if (column !== undefined) problem.column = column;
  problem.message = problemText(problem, message);
  return problem;
}
