import { describe, expect, it } from 'vitest';
import { isNotAcceptable, isUnsupportedContentType, parseMediaRange } from './media-type.js';

describe('JSON:API 1.1 content negotiation', () => {
  it('parses parameters, quoted or not', () => {
    const range = parseMediaRange('application/vnd.api+json; ext="https://a/b https://c"; profile=x');
    expect(range.type).toBe('application/vnd.api+json');
    expect(range.params.get('ext')).toBe('https://a/b https://c');
    expect(range.params.get('profile')).toBe('x');
  });

  it.each([
    ['application/vnd.api+json', false],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', false],
    ['application/vnd.api+json;profile=x', false],
    ['application/vnd.api+json; charset=utf-8', true],
    ['application/json', true],
    [undefined, true],
  ])('Content-Type %s unsupported: %s', (contentType, expected) => {
    expect(isUnsupportedContentType(contentType)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['*/*', false],
    ['application/vnd.api+json', false],
    ['application/vnd.api+json; charset=utf-8', true],
    // One unmodified instance is enough.
    ['application/vnd.api+json; charset=utf-8, application/vnd.api+json', false],
    ['application/vnd.api+json; q=0.9', false],
    ['text/html', true],
    ['application/json', false],
  ])('Accept %s not acceptable: %s', (accept, expected) => {
    expect(isNotAcceptable(accept)).toBe(expected);
  });
});
