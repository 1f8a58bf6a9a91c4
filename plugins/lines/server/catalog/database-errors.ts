import { ApiError, databaseErrorCode, type AtriumRouter } from '@atrium/sdk/server';

/** The SQLSTATE and the constraint named, under a driver or ORM wrapper (drizzle puts it in `cause`). */
function postgresError(error: unknown): { code: string; constraint?: string } | null {
  const code = databaseErrorCode(error);
  if (!code) return null;
  let current = error as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined;
  while (current && current.code !== code) current = current.cause as typeof current;
  return { code, constraint: typeof current?.constraint === 'string' ? current.constraint : undefined };
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
