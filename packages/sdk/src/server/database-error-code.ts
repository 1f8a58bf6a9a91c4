/**
 * The SQLSTATE of what the database refused, under a driver or ORM wrapper (drizzle puts the
 * driver's error in `cause`); undefined for anything else. Modules answer the races their own checks
 * cannot close (two writers taking the same name) from it instead of each walking the chain again.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 4;
    depth++
  ) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

/** A unique index refused the write (23505). */
export const isUniqueViolation = (error: unknown): boolean => databaseErrorCode(error) === '23505';
/** A foreign key refused the write: the row named is gone, or the row is still in use (23503). */
export const isForeignKeyViolation = (error: unknown): boolean => databaseErrorCode(error) === '23503';
