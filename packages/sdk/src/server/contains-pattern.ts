/**
 * An ILIKE pattern matching values that contain `text` literally: `%`, `_` and `\` typed by a user
 * are escaped, so "50%" finds "50%" and not "50" followed by anything. Trimmed; use with `ilike`.
 */
export const containsPattern = (text: string): string => `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
