import { ApiError, type AtriumRouter } from '@atrium/sdk/server';

/** The PostgreSQL error under a driver or ORM wrapper (drizzle puts it in `cause`). */
function postgresError(error: unknown): { code?: string; constraint?: string } | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === 'string' ? candidate.constraint : undefined,
      };
    }
    current = candidate.cause;
  }
  return null;
}

/**
 * Turns what the database refuses into the module's answers: two writers racing on the same new name
 * both pass the route's own check, and the unique index stops the second one — that is a 409 naming
 * the clash, not a 500 (likewise a row removed under a concurrent change). Everything else goes on to the server's own error handler unchanged.
 */
export function translateDatabaseErrors(router: AtriumRouter): void {
  router.setErrorHandler((error) => {
    const pg = postgresError(error);
    if (pg?.code === '23505') {
      throw new ApiError(409, 'Something with this name was just created by someone else; reload and try again.', {
        code: 'unique_violation',
        meta: pg.constraint ? { constraint: pg.constraint } : undefined,
      });
    }
    if (pg?.code === '23503') {
      throw new ApiError(409, 'A record this change refers to was just changed or removed; reload and try again.', {
        code: 'foreign_key_violation',
        meta: pg.constraint ? { constraint: pg.constraint } : undefined,
      });
    }
    throw error;
  });
}
