import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY, passwordPolicyViolations } from './password-policy.js';

describe('password policy', () => {
  it('accepts the demo password under the default policy', () => {
    expect(passwordPolicyViolations('Atrium!demo1', DEFAULT_PASSWORD_POLICY)).toEqual([]);
  });

  it('names every rule a password breaks', () => {
    expect(passwordPolicyViolations('short', DEFAULT_PASSWORD_POLICY)).toEqual([
      'Password not long enough',
      'Password must have uppercase characters',
      'Password must have numeric characters',
      'Password must have symbol characters',
    ]);
    expect(passwordPolicyViolations('ALLUPPERCASE1!', DEFAULT_PASSWORD_POLICY)).toEqual([
      'Password must have lowercase characters',
    ]);
  });

  it('counts characters, not UTF-16 units, and treats letters of any script as letters', () => {
    const policy = { ...DEFAULT_PASSWORD_POLICY, minimum_length: 8, require_symbols: false, require_numbers: false };
    expect(passwordPolicyViolations('Ünïcødé', policy)).toEqual(['Password not long enough']);
    expect(passwordPolicyViolations('Ünïcødéß', policy)).toEqual([]);
  });
});
