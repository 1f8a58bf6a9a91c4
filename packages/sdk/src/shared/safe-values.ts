import { z } from 'zod';

/**
 * Zod schemas for values that must be sane before they reach the database or a response header
 * (issue 14): real calendar dates in a range PostgreSQL and JavaScript both hold, and strings that
 * may end up in a header (a file name, a MIME type) without control characters. Both halves of a
 * module use them: the server validates with them, the web half shows the same messages.
 */

export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '2200-12-31';

const DATE_FORM = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `value` is `YYYY-MM-DD` naming a day that exists (no 2023-02-29, no month 13). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_FORM.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

export interface CalendarDateOptions {
  /** Earliest allowed day, `YYYY-MM-DD` (default 1900-01-01). */
  min?: string;
  /** Latest allowed day, `YYYY-MM-DD` (default 2200-12-31). */
  max?: string;
  /** Message for a value that is not a date at all. */
  message?: string;
}

/**
 * A calendar date as `YYYY-MM-DD`, a day that exists, between `min` and `max` (1900-01-01 and
 * 2200-12-31 by default). `"99999-01-01"`, `"2024-02-30"` and `"2024-1-1"` are refused with a 400
 * naming the field instead of failing in the database.
 */
export function calendarDate(options: CalendarDateOptions = {}) {
  const min = options.min ?? EARLIEST_DATE;
  const max = options.max ?? LATEST_DATE;
  const message = options.message ?? 'Enter a date as YYYY-MM-DD.';
  return z
    .string({ error: message })
    .refine(isCalendarDate, { message })
    .refine((value) => !isCalendarDate(value) || (value >= min && value <= max), {
      message: `Enter a date between ${min} and ${max}.`,
    });
}

/**
 * A timestamp in ISO 8601 form with a time zone (`2024-05-01T10:00:00Z`, `…+02:00`), whose date part
 * lies in the same sane range as `calendarDate`.
 */
export function calendarDateTime(options: Omit<CalendarDateOptions, 'message'> & { message?: string } = {}) {
  const min = options.min ?? EARLIEST_DATE;
  const max = options.max ?? LATEST_DATE;
  const message = options.message ?? 'Enter a date and time in ISO 8601 form with a time zone.';
  return z
    .string({ error: message })
    .refine(
      (value) => z.iso.datetime({ offset: true }).safeParse(value).success && isCalendarDate(value.slice(0, 10)),
      {
        message,
      },
    )
    .refine(
      (value) => !isCalendarDate(value.slice(0, 10)) || (value.slice(0, 10) >= min && value.slice(0, 10) <= max),
      {
        message: `Enter a date between ${min} and ${max}.`,
      },
    );
}

/** Control characters (C0 and DEL): never in a value that may be written into a header. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * A string that is safe to put in a response header or a file name: no control characters (CR/LF
 * would split the header, NUL ends it), at most `max` characters (default 255).
 */
export function headerSafeString(options: { max?: number; message?: string } = {}) {
  const max = options.max ?? 255;
  return z
    .string()
    .max(max, { message: `Use at most ${max} characters.` })
    .refine((value) => !CONTROL_CHARACTERS.test(value), {
      message: options.message ?? 'Control characters (such as line breaks) are not allowed here.',
    });
}

/** A MIME type such as `application/pdf` or `text/plain; charset=utf-8` (RFC 9110 tokens). */
export const MIME_TYPE =
  /^[A-Za-z0-9!#$&^_.+-]{1,127}\/[A-Za-z0-9!#$&^_.+-]{1,127}(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\u0000-\u001f\u007f]*"|[A-Za-z0-9!#$&^_.+-]+))*$/;

export function mimeType(options: { message?: string } = {}) {
  return z
    .string()
    .max(255, { message: 'Use at most 255 characters.' })
    .regex(MIME_TYPE, { message: options.message ?? 'Use a MIME type such as application/pdf.' });
}
