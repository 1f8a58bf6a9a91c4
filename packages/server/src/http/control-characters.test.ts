import { describe, expect, it } from 'vitest';
import { findControlCharacter } from './control-characters.js';

describe('the control-character gate on JSON bodies', () => {
  it('names the first offending string by its JSON pointer, escaping ~ and /', () => {
    expect(findControlCharacter({ data: { attributes: { 'a/b~c': ['ok', 'bad\u0007'] } } })).toBe(
      '/data/attributes/a~1b~0c/1',
    );
  });

  it('names an offending key with the character shown as ?', () => {
    expect(findControlCharacter({ data: { 'x\u0001y': 1 } })).toBe('/data/x?y');
  });

  it('lets tabs and line breaks through, and answers null for a clean body', () => {
    expect(findControlCharacter({ note: 'line 1\r\nline 2\tend', list: [1, true, null, { a: 'b' }] })).toBeNull();
    expect(findControlCharacter('\u0000')).toBe('');
  });
});
