import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecrets, SecretOpenError } from './secrets.js';
import { formatSsn, maskSsn, SSN_PATTERN, ssnDigits, ssnVault } from './ssn.js';

describe('SSN vault', () => {
  const secrets = createSecrets([randomBytes(32)]);
  const vault = ssnVault(secrets);

  it('seals the digits bound to their row, and opens them formatted', () => {
    const stored = vault.seal('123-45-6789', 'claims.contact:1:ssn');
    expect(stored.sealed).not.toContain('6789');
    expect(stored.hash).not.toContain('6789');
    expect(vault.open(stored.sealed, 'claims.contact:1:ssn')).toBe('123-45-6789');
    expect(() => vault.open(stored.sealed, 'claims.contact:2:ssn')).toThrow(SecretOpenError);
    expect(vault.needsRenewal(stored)).toBe(false);
  });

  it('hashes the digits: an SSN entered with or without dashes is the same SSN', () => {
    const stored = vault.seal('123456789', 'x');
    expect(vault.hashes('123-45-6789')).toContain(stored.hash);
    expect(vault.hashes('123-45-6780')).not.toContain(stored.hash);
  });

  it('masks to the last four digits, formats and validates', () => {
    expect(maskSsn('123456789')).toBe('***-**-6789');
    expect(maskSsn('123-45-6789')).toBe('***-**-6789');
    expect(formatSsn('123456789')).toBe('123-45-6789');
    expect(ssnDigits('123-45-6789')).toBe('123456789');
    expect(SSN_PATTERN.test('123-45-6789')).toBe(true);
    for (const bad of ['000-12-3456', '666-12-3456', '900-12-3456', '123-00-4567', '123-45-0000', '12-345-6789']) {
      expect(SSN_PATTERN.test(bad)).toBe(false);
    }
  });

  it('reports SSNs sealed with a retired key for renewal', () => {
    const oldKey = randomBytes(32);
    const stored = ssnVault(createSecrets([oldKey])).seal('123-45-6789', 'c');
    const rotated = ssnVault(createSecrets([randomBytes(32), oldKey]));
    expect(rotated.needsRenewal(stored)).toBe(true);
    expect(rotated.open(stored.sealed, 'c')).toBe('123-45-6789');
    expect(rotated.hashes('123-45-6789')).toContain(stored.hash);
  });
});
