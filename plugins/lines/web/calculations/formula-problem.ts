import { isApiRequestError } from '@atrium/sdk';

/**
 * A formula problem from the server (a 400 on save): the message and, when the server named it, the
 * place — `position: { line, column, offset }` (1-based line and column) in the error's `meta`, or
 * "line L, column C" in its text. The editor draws it as a marker there.
 */
export interface FormulaProblem {
  message: string;
  line: number | null;
  column: number | null;
}

const asPosition = (value: unknown): { line: number; column: number } | null => {
  if (typeof value !== 'object' || value === null) return null;
  const { line, column } = value as { line?: unknown; column?: unknown };
  return typeof line === 'number' && typeof column === 'number' ? { line, column } : null;
};

export function formulaProblemsOf(error: unknown): FormulaProblem[] {
  if (!isApiRequestError(error) || error.status !== 400) return [];
  const problems: FormulaProblem[] = [];
  // Plain-JSON routes put the error's meta members on the problem body: `position`, `problems`.
  const body = (typeof error.body === 'object' && error.body !== null ? error.body : {}) as Record<string, unknown>;
  const detail = typeof body.detail === 'string' ? body.detail : (error.errors[0]?.detail ?? error.message);
  if (Array.isArray(body.problems) && body.problems.length > 0) {
    for (const problem of body.problems as { message?: string; position?: unknown }[]) {
      const position = asPosition(problem.position);
      problems.push({
        message: problem.message ?? detail,
        line: position?.line ?? null,
        column: position?.column ?? null,
      });
    }
    return problems;
  }
  if (asPosition(body.position)) {
    const position = asPosition(body.position)!;
    return [{ message: detail, line: position.line, column: position.column }];
  }
  for (const item of error.errors) {
    const meta = item.meta ?? {};
    const nested = Array.isArray(meta.problems) ? (meta.problems as { message?: string; position?: unknown }[]) : [];
    if (nested.length > 0) {
      for (const problem of nested) {
        const position = asPosition(problem.position);
        problems.push({
          message: problem.message ?? item.detail,
          line: position?.line ?? null,
          column: position?.column ?? null,
        });
      }
      continue;
    }
    const position = asPosition(meta.position) ?? fromText(item.detail);
    problems.push({ message: item.detail, line: position?.line ?? null, column: position?.column ?? null });
  }
  return problems;
}

function fromText(message: string): { line: number; column: number } | null {
  const match = /line (\d+), column (\d+)/i.exec(message);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
}
