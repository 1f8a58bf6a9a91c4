import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect-target.js';

const origin = 'https://portal.example.com';

describe('safeRedirectTarget', () => {
  it.each([
    ['/policies', '/policies'],
    ['/claims/12/exposures?tab=2#top', '/claims/12/exposures?tab=2#top'],
    ['/', '/'],
    ['https://portal.example.com/rules?x=1', '/rules?x=1'],
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
  ])('replaces a %s target with /', (_label, input) => {
    expect(safeRedirectTarget(input, origin)).toBe('/');
  });

  it('replaces anything that is not a string with /', () => {
    expect(safeRedirectTarget(undefined, origin)).toBe('/');
    expect(safeRedirectTarget(null, origin)).toBe('/');
    expect(safeRedirectTarget(['/a', '/b'], origin)).toBe('/');
  });
});
