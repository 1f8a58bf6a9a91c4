import { ApiRequestError, parseErrorItems, type ApiErrorItem } from './api-error.js';

/**
 * Maps a server's error list onto form fields ("Validation rules"): JSON:API pointers
 * `/data/attributes/<field>` and problem-details pointers `/<field>` name a field; errors at `/data`,
 * at the document root or without a pointer are form-wide and shown as one fixed sentence.
 */

export const FORM_WIDE_ERROR_MESSAGE =
  'We’re sorry, but it looks like there is a problem with the information you entered.';

export interface ServerFormErrors {
  /** First message per field; nested attributes use dots (`address.city`). */
  fields: Record<string, string>;
  /** FORM_WIDE_ERROR_MESSAGE when any error was form-wide, else null. */
  formError: string | null;
  /** The server's own form-wide details, for logs or a details disclosure. */
  formDetails: string[];
}

const decodePointerSegment = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The field a pointer names, or null for form-wide pointers. */
export function fieldFromPointer(pointer: string | undefined): string | null {
  if (pointer === undefined || pointer === '' || pointer === '/') return null;
  const segments = pointer.split('/').slice(1).map(decodePointerSegment);
  if (segments[0] === 'data') {
    // JSON:API: only attributes and relationships name fields; /data, /data/type, /data/id are form-wide.
    if ((segments[1] === 'attributes' || segments[1] === 'relationships') && segments.length > 2) {
      return segments.slice(2).join('.');
    }
    return null;
  }
  return segments.join('.') || null;
}

export function mapServerFormErrors(source: ApiRequestError | ApiErrorItem[] | unknown): ServerFormErrors {
  const items: readonly ApiErrorItem[] =
    source instanceof ApiRequestError
      ? source.errors
      : Array.isArray(source)
        ? (source as ApiErrorItem[])
        : parseErrorItems(source);
  const result: ServerFormErrors = { fields: {}, formError: null, formDetails: [] };
  for (const item of items) {
    const field = item.pointer !== undefined ? fieldFromPointer(item.pointer) : (item.parameter ?? null);
    if (field === null) {
      result.formError = FORM_WIDE_ERROR_MESSAGE;
      if (item.detail) result.formDetails.push(item.detail);
    } else if (!(field in result.fields)) {
      result.fields[field] = item.detail;
    }
  }
  // A failed call without any error list (e.g. a bare 400 body) is still a form-wide problem.
  if (items.length === 0 && source instanceof ApiRequestError) {
    result.formError = FORM_WIDE_ERROR_MESSAGE;
    result.formDetails.push(source.message);
  }
  return result;
}
