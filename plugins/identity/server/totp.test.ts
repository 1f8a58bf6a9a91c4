import { describe, expect, it } from 'vitest';
import { Secret } from 'otpauth';
import { hotpCode, matchTotpStep, otpauthUri, totpCode, totpStep } from './totp.js';

// RFC 6238 Appendix B: the seeds are ASCII "1234567890" repeated to the HMAC's key size.
const seed = (bytes: number) => Secret.fromLatin1('1234567890'.repeat(7).slice(0, bytes)).base32;
const SHA1_SEED = seed(20);
const SHA256_SEED = seed(32);
const SHA512_SEED = seed(64);

const RFC6238_VECTORS: [seconds: number, sha1: string, sha256: string, sha512: string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

// RFC 4226 Appendix D: HOTP values for counters 0..9 with the 20-byte seed.
const RFC4226_VECTORS = [
  '755224',
  '287082',
  '359152',
  '969429',
  '338314',
  '254676',
  '287922',
  '162583',
  '399871',
  '520489',
];

describe('TOTP (RFC 6238) through the module the sign-in uses', () => {
  it.each(RFC6238_VECTORS)('matches Appendix B at T=%i', (seconds, sha1, sha256, sha512) => {
    const at = new Date(seconds * 1000);
    expect(totpCode(SHA1_SEED, at, { digits: 8, algorithm: 'SHA1' })).toBe(sha1);
    expect(totpCode(SHA256_SEED, at, { digits: 8, algorithm: 'SHA256' })).toBe(sha256);
    expect(totpCode(SHA512_SEED, at, { digits: 8, algorithm: 'SHA512' })).toBe(sha512);
  });

  it.each(RFC4226_VECTORS.map((code, counter) => [counter, code] as const))(
    'matches RFC 4226 Appendix D for counter %i',
    (counter, code) => {
      expect(hotpCode(SHA1_SEED, counter)).toBe(code);
    },
  );

  it('accepts the current step and one step either side, nothing further', () => {
    const at = new Date(1_700_000_000_000);
    const step = totpStep(at);
    const codeAt = (offsetSteps: number) => totpCode(SHA1_SEED, new Date(at.getTime() + offsetSteps * 30_000));
    expect(matchTotpStep(SHA1_SEED, codeAt(0), at)).toBe(step);
    expect(matchTotpStep(SHA1_SEED, codeAt(-1), at)).toBe(step - 1);
    expect(matchTotpStep(SHA1_SEED, codeAt(1), at)).toBe(step + 1);
    expect(matchTotpStep(SHA1_SEED, codeAt(-2), at)).toBeNull();
    expect(matchTotpStep(SHA1_SEED, codeAt(2), at)).toBeNull();
    expect(matchTotpStep(SHA1_SEED, 'abcdef', at)).toBeNull();
  });

  it('uses 6 digits, SHA-1 and 30 seconds by default', () => {
    expect(totpCode(SHA1_SEED, new Date(59_000))).toBe('287082');
  });

  it('describes enrolment as an otpauth:// URI', () => {
    const uri = otpauthUri('JBSWY3DPEHPK3PXP', 'Atrium', 'mfa@atrium.test');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Atrium:mfa%40atrium\.test\?/);
    const params = new URL(uri).searchParams;
    expect(params.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(params.get('issuer')).toBe('Atrium');
    expect(params.get('algorithm')).toBe('SHA1');
    expect(params.get('digits')).toBe('6');
    expect(params.get('period')).toBe('30');
  });
});
