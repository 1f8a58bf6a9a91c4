import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect-target.js';

const origin = 'https://portal.example.com';

describe('safeRedirectTarget', () => {
  it.each([
    ['/policies', '/policies'],
    ['/claims/12/exposures?tab=2#top', '/claims/12/exposures?tab=2#top'],
    ['/', '/'],
    ['https://portal.example.com/rules?x=1', '/rules?x=1'],
    ['/./claims', '/claims'],
    ['/lines/products/My%20Product', '/lines/products/My%20Product'],
    ['/claims?redirect=//evil.example', '/claims?redirect=//evil.example'],
  ])('honours the same-site target %s', (input, expected) => {
    expect(safeRedirectTarget(input, origin)).toBe(expected);
  });

  it.each([
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/policies'],
    ['backslash host', '/\\evil.example'],
    ['backslashes', '\\\\evil.example'],
    ['tab inside the slashes', '/\t/evil.example'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['javascript scheme, mixed case and spaces', ' JaVaScRiPt:alert(1)'],
    ['data scheme', 'data:text/html,<script>alert(1)</script>'],
    ['other origin over https', 'https://evil.example/policies'],
    ['same host, other scheme', 'http://portal.example.com/policies'],
    ['same host, other port', 'https://portal.example.com:8443/policies'],
    ['mailto', 'mailto:someone@example.com'],
    ['empty', ''],
    // Issue 14, hole 6: dot segments and encodings that normalise into a protocol-relative path.
    ['dot segment before two slashes', '/.//evil.example/x'],
    ['dot-dot segment before two slashes', '/..//evil.example/x'],
    ['several dot segments', '/././/evil.example'],
    ['encoded dot segment', '/%2e//evil.example/x'],
    ['encoded dot-dot segment', '/%2E%2E//evil.example'],
    ['encoded slashes', '/%2F%2Fevil.example'],
    ['encoded slash after a slash', '/%2fevil.example'],
    ['doubly encoded slashes', '/%252F%252Fevil.example'],
    ['encoded backslash', '/%5Cevil.example'],
    ['encoded backslash after a slash', '/%5c%5cevil.example'],
    ['encoded dot segment then encoded slashes', '/%2e%2f%2fevil.example'],
    ['three slashes', '///evil.example'],
    ['slash, backslash, slash', '/\\/evil.example'],
    ['encoded NUL', '/%00//evil.example'],
    ['encoded newline', '/%0a/evil.example'],
    ['malformed encoding', '/%E0%A4%A'],
    ['https with two slashes in the path', 'https://portal.example.com//evil.example'],
    ['userinfo on this host', 'https://evil.example@portal.example.com.evil.example/'],
    ['scheme-relative with userinfo', '//portal.example.com@evil.example/'],
  ])('replaces a %s target with /', (_label, input) => {
    expect(safeRedirectTarget(input, origin)).toBe('/');
  });

  it('replaces anything that is not a string with /', () => {
    expect(safeRedirectTarget(undefined, origin)).toBe('/');
    expect(safeRedirectTarget(null, origin)).toBe('/');
    expect(safeRedirectTarget(['/a', '/b'], origin)).toBe('/');
  });
});
