import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calendarDate, headerSafeString, mimeType } from '@atrium/sdk/shared';
import { toApiError } from './error-response.js';

/** Issue 14, hole 4: what a handler throws for bad input is the caller's fault (4xx), never a 500. */
describe('errors from input checked inside a handler', () => {
  it('a ZodError is 400 with a pointer per field', () => {
    const failure = (() => {
      try {
        z.strictObject({ policy: z.strictObject({ effective_date: calendarDate() }) }).parse({
          policy: { effective_date: '99999-01-01' },
        });
      } catch (error) {
        return error;
      }
    })();
    const plain = toApiError(failure, false);
    expect(plain.unexpected).toBe(false);
    expect(plain.apiError.status).toBe(400);
    expect(plain.apiError.issues[0]).toMatchObject({ source: { pointer: '/policy/effective_date' } });
    expect(toApiError(failure, true).apiError.issues[0]!.source).toEqual({
      pointer: '/data/attributes/policy/effective_date',
    });
  });

  it('an invalid date turned into a string is 400', () => {
    const failure = (() => {
      try {
        return new Date('not a date').toISOString();
      } catch (error) {
        return error;
      }
    })();
    expect(toApiError(failure, false).apiError.status).toBe(400);
  });

  it('other errors stay unexpected', () => {
    expect(toApiError(new TypeError('x is undefined'), false)).toMatchObject({ unexpected: true });
    expect(toApiError(new RangeError('Maximum call stack size exceeded'), false).apiError.status).toBe(500);
  });
});

describe('shared value schemas', () => {
  it('calendarDate takes real days in 1900-01-01..2200-12-31', () => {
    const date = calendarDate();
    for (const ok of ['2024-02-29', '1900-01-01', '2200-12-31', '2026-11-26'])
      expect(date.safeParse(ok).success, ok).toBe(true);
    for (const bad of [
      '99999-01-01',
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '1899-12-31',
      '2201-01-01',
      '2024-1-1',
      '2024-01-01T00:00:00Z',
      '',
      20240101,
    ]) {
      expect(date.safeParse(bad).success, String(bad)).toBe(false);
    }
    expect(date.safeParse('1899-12-31').error?.issues[0]?.message).toBe(
      'Enter a date between 1900-01-01 and 2200-12-31.',
    );
  });

  it('headerSafeString refuses control characters and mimeType takes only MIME types', () => {
    expect(headerSafeString().safeParse('report.pdf').success).toBe(true);
    expect(headerSafeString().safeParse('a\r\nSet-Cookie: x=1').success).toBe(false);
    expect(headerSafeString().safeParse('a\u0000').success).toBe(false);
    expect(mimeType().safeParse('application/pdf').success).toBe(true);
    expect(mimeType().safeParse('text/plain; charset=utf-8').success).toBe(true);
    expect(mimeType().safeParse('text/html\r\nX-Injected: 1').success).toBe(false);
    expect(mimeType().safeParse('pdf').success).toBe(false);
  });
});
