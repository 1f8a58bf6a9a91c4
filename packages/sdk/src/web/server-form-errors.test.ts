import { describe, expect, it } from 'vitest';
import { apiErrorFromResponse } from './api-error.js';
import { fieldFromPointer, FORM_WIDE_ERROR_MESSAGE, mapServerFormErrors } from './server-form-errors.js';

describe('server form errors', () => {
  it('maps JSON:API pointers /data/attributes/<field> to fields, first message per field', () => {
    const error = apiErrorFromResponse(400, {
      errors: [
        { status: '400', detail: 'Name is required.', source: { pointer: '/data/attributes/name' } },
        { status: '400', detail: 'Name is too short.', source: { pointer: '/data/attributes/name' } },
        { status: '400', detail: 'City is required.', source: { pointer: '/data/attributes/address/city' } },
      ],
    });
    expect(mapServerFormErrors(error)).toEqual({
      fields: { name: 'Name is required.', 'address.city': 'City is required.' },
      formError: null,
      formDetails: [],
    });
  });

  it('maps problem-details pointers /<field> to fields', () => {
    const error = apiErrorFromResponse(400, {
      status: 400,
      title: 'Bad Request',
      errors: [{ detail: 'Invalid email address', pointer: '/email' }],
    });
    expect(mapServerFormErrors(error).fields).toEqual({ email: 'Invalid email address' });
  });

  it('treats /data, the root and missing pointers as form-wide with the fixed sentence', () => {
    expect(FORM_WIDE_ERROR_MESSAGE).toBe(
      'We’re sorry, but it looks like there is a problem with the information you entered.',
    );
    for (const source of [{ pointer: '/data' }, { pointer: '' }, undefined, { pointer: '/data/type' }]) {
      const result = mapServerFormErrors({ errors: [{ detail: 'Broken.', ...(source ? { source } : {}) }] });
      expect(result.formError).toBe(FORM_WIDE_ERROR_MESSAGE);
      expect(result.formDetails).toEqual(['Broken.']);
      expect(result.fields).toEqual({});
    }
  });

  it('mixes field and form-wide errors', () => {
    const result = mapServerFormErrors([
      { detail: 'Bad name', pointer: '/data/attributes/name' },
      { detail: 'Whole thing wrong' },
    ]);
    expect(result.fields).toEqual({ name: 'Bad name' });
    expect(result.formError).toBe(FORM_WIDE_ERROR_MESSAGE);
  });

  it('a failed call without an error list is form-wide', () => {
    const result = mapServerFormErrors(apiErrorFromResponse(400, 'plain text failure'));
    expect(result.formError).toBe(FORM_WIDE_ERROR_MESSAGE);
    expect(result.formDetails).toEqual(['plain text failure']);
  });

  it('decodes pointer escapes and relationships', () => {
    expect(fieldFromPointer('/data/relationships/adjuster')).toBe('adjuster');
    expect(fieldFromPointer('/a~1b')).toBe('a/b');
    expect(fieldFromPointer('/data/attributes')).toBeNull();
    expect(fieldFromPointer('/')).toBeNull();
  });
});
