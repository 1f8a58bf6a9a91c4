import { ApiRequestError } from '@atrium/sdk';
import { describe, expect, it } from 'vitest';
import { formulaProblemsOf } from './formula-problem.js';

const problem400 = (body: Record<string, unknown>, errors: { detail: string }[]) =>
  new ApiRequestError({ status: 400, message: errors[0]?.detail ?? 'Bad Request', errors, body });

describe('formula problems from a 400', () => {
  it('reads the syntax error position from the problem body', () => {
    const detail = "Syntax error at line 2, column 7 (offset 30): expected ')', found end of formula";
    const error = problem400(
      {
        status: 400,
        detail,
        code: 'formula_syntax',
        position: { line: 2, column: 7, offset: 30 },
        errors: [{ detail }],
      },
      [{ detail }],
    );
    expect(formulaProblemsOf(error)).toEqual([{ message: detail, line: 2, column: 7 }]);
  });

  it('lists every compile problem with its own position', () => {
    const error = problem400(
      {
        detail: "Unknown name 'zipp'; cycle a → b → a",
        problems: [
          { code: 'unknown_reference', message: "Unknown name 'zipp'", position: { line: 1, column: 18, offset: 17 } },
          { code: 'cycle', message: 'cycle a → b → a' },
        ],
      },
      [{ detail: "Unknown name 'zipp'" }, { detail: 'cycle a → b → a' }],
    );
    expect(formulaProblemsOf(error)).toEqual([
      { message: "Unknown name 'zipp'", line: 1, column: 18 },
      { message: 'cycle a → b → a', line: null, column: null },
    ]);
  });

  it('falls back to the position written in the message, and ignores other failures', () => {
    const detail = 'Syntax error at line 3, column 1 (offset 40): expected a value';
    expect(formulaProblemsOf(problem400({}, [{ detail }]))).toEqual([{ message: detail, line: 3, column: 1 }]);
    expect(formulaProblemsOf(new ApiRequestError({ status: 500, message: 'Internal Server Error.' }))).toEqual([]);
    expect(formulaProblemsOf(new Error('network'))).toEqual([]);
  });
});
