import { describe, expect, it } from 'vitest';
import { databaseErrorCode, isForeignKeyViolation, isUniqueViolation } from './database-error-code.js';

describe('databaseErrorCode', () => {
  it('finds the SQLSTATE on the error or under wrappers, and nothing on other errors', () => {
    const pg = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(databaseErrorCode(pg)).toBe('23505');
    expect(databaseErrorCode(new Error('query failed', { cause: pg }))).toBe('23505');
    expect(isUniqueViolation(new Error('a', { cause: new Error('b', { cause: pg }) }))).toBe(true);
    expect(isForeignKeyViolation(Object.assign(new Error('fk'), { code: '23503' }))).toBe(true);
    expect(isForeignKeyViolation(pg)).toBe(false);
    // Node's own codes are not SQLSTATEs.
    expect(databaseErrorCode(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(databaseErrorCode(undefined)).toBeUndefined();
    expect(databaseErrorCode('23505')).toBeUndefined();
  });
});
