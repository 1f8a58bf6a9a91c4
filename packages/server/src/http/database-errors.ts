import { ApiError } from '@atrium/sdk/server';

/**
 * What the database refuses, as the client's fault or as a conflict — never a 500. Routes check
 * their input first; these are the races and edge cases that slip past them: two writers taking
 * the same name at once (the unique index stops the second), a row removed under a concurrent
 * change (a foreign key), a number too large for its column. Modules may answer with more precise
 * messages of their own; this is the floor for every route.
 */
interface PostgresErrorFields {
  code: string;
  constraint?: string;
}

/** The PostgreSQL error under a driver or ORM wrapper (drizzle puts it in `cause`). */
export function postgresErrorOf(error: unknown): PostgresErrorFields | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown; severity?: unknown };
    // SQLSTATE: five characters; node-postgres errors also carry a severity.
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code) && 'severity' in candidate) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === 'string' ? candidate.constraint : undefined,
      };
    }
    current = candidate.cause;
  }
  return null;
}

const CONFLICTS: Record<string, string> = {
  '23505': 'Something with the same name or number was just created by someone else; reload and try again.',
  '23503': 'A record this change refers to was just changed or removed (or is still in use); reload and try again.',
  '40001': 'Someone else changed the same records at the same moment; try again.',
  '40P01': 'Someone else changed the same records at the same moment; try again.',
};

const BAD_VALUES: Record<string, string> = {
  '22001': 'A value is longer than this field allows.',
  '22003': 'A number is too large for this field.',
  '22007': 'A date or time is not valid.',
  '22008': 'A date or time is out of range.',
  '22021': 'A value contains a character that cannot be stored (such as NUL).',
  '22P05': 'A value contains a character that cannot be stored.',
  '22P02': 'A value does not have the form this field needs.',
  '23502': 'A required value is missing.',
  '23514': 'A value is not allowed here.',
};

export function apiErrorForDatabase(error: unknown): ApiError | null {
  const pg = postgresErrorOf(error);
  if (!pg) return null;
  const meta = pg.constraint ? { constraint: pg.constraint } : undefined;
  const code = `database_${pg.code}`;
  if (CONFLICTS[pg.code]) return new ApiError(409, CONFLICTS[pg.code], { code, meta });
  if (BAD_VALUES[pg.code]) return new ApiError(400, BAD_VALUES[pg.code], { code, meta });
  // The rest of class 22 (data exception) is a value the database cannot take: the caller's input.
  if (pg.code.startsWith('22')) return new ApiError(400, 'A value is not valid for this field.', { code, meta });
  // The rest of class 23 (integrity constraint violation) conflicts with records already stored.
  if (pg.code.startsWith('23')) {
    return new ApiError(409, 'This change conflicts with records already stored; reload and try again.', {
      code,
      meta,
    });
  }
  // 54000 program_limit_exceeded: a value too large to index (a megabyte in a unique name).
  if (pg.code === '54000') return new ApiError(400, 'A value is too large for this field.', { code, meta });
  return null;
}
