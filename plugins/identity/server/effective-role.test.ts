import { describe, expect, it } from 'vitest';
import { readCookie, resolveEffectiveRole } from './effective-role.js';

describe('effective role', () => {
  const roles = ['Claims Adjuster', 'Underwriter'];

  it('takes the header when the user holds that role, else none at all', () => {
    expect(resolveEffectiveRole({ 'x-effective-role': 'Underwriter' }, roles)).toBe('Underwriter');
    expect(resolveEffectiveRole({ 'x-effective-role': 'Administrator' }, roles)).toBeNull();
    expect(
      resolveEffectiveRole({ 'x-effective-role': 'Administrator', cookie: 'chosen_role=Underwriter' }, roles),
    ).toBeNull();
  });

  it('falls back to the chosen_role cookie, then to the only role', () => {
    expect(resolveEffectiveRole({ cookie: 'a=b; chosen_role=Claims%20Adjuster' }, roles)).toBe('Claims Adjuster');
    expect(resolveEffectiveRole({}, roles)).toBeNull();
    expect(resolveEffectiveRole({}, ['Agent'])).toBe('Agent');
    expect(resolveEffectiveRole({}, [])).toBeNull();
  });

  it('reads cookies defensively', () => {
    expect(readCookie('chosen_role=%E0%A4%A', 'chosen_role')).toBeUndefined();
    expect(readCookie(undefined, 'chosen_role')).toBeUndefined();
    expect(readCookie('xchosen_role=1; chosen_role="Agent"', 'chosen_role')).toBe('Agent');
  });
});
