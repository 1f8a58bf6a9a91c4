import type { Secrets } from './secrets.js';

/**
 * Social Security numbers at rest and on the wire (docs/security.md, "SSNs"), for every module that
 * keeps them (claims' contacts now, the contacts module later): stored sealed by the secrets service
 * with a keyed hash beside it for duplicate checks, never in plaintext; answered masked
 * (`***-**-1234`) unless the caller holds the module's read-SSN permission, and every unmasked answer
 * is audited by the module.
 */

/** A well-formed SSN, with or without dashes: no area 000, 666 or 9xx, no group 00, no serial 0000. */
export const SSN_PATTERN = /^(?!000|666|9\d\d)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}$/;
export const SSN_INVALID = 'Enter a valid SSN such as 123-45-6789.';
/** The purpose the keyed hashes of SSNs are derived for (Secrets.hash). */
export const SSN_HASH_PURPOSE = 'ssn';

/** The digits of an SSN (`123-45-6789` → `123456789`); equal SSNs have equal digits. */
export function ssnDigits(ssn: string): string {
  return ssn.replace(/\D/g, '');
}

/** `123-45-6789`, whichever way it was entered (a value of another length is returned as entered). */
export function formatSsn(ssn: string): string {
  const digits = ssnDigits(ssn);
  return digits.length === 9 ? `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}` : ssn;
}

/** `***-**-6789`: the last four digits, which identify a person to the people who already know them. */
export function maskSsn(ssn: string): string {
  return `***-**-${ssnDigits(ssn).slice(-4)}`;
}

/** What a row stores for an SSN: the sealed digits and their keyed hash. */
export interface StoredSsn {
  sealed: string;
  hash: string;
}

export interface SsnVault {
  /**
   * The stored form of `ssn`. `context` names where it is kept (e.g. `claims.contact:42:ssn`) and
   * must be given again to open it: a sealed SSN copied to another row does not open.
   */
  seal(ssn: string, context: string): StoredSsn;
  /** The SSN (`123-45-6789`) of a stored one; throws SecretOpenError when it was altered or moved. */
  open(sealed: string, context: string): string;
  /** The hashes a stored SSN equal to `ssn` may carry (one per configured key): compare with `IN`. */
  hashes(ssn: string): string[];
  /** Whether a stored SSN was sealed or hashed with a retired key (seal it again). */
  needsRenewal(stored: StoredSsn): boolean;
}

/** SSN storage over the platform's secrets service (`context.secrets`). */
export function ssnVault(secrets: Secrets): SsnVault {
  return {
    seal: (ssn, context) => ({
      sealed: secrets.seal(ssnDigits(ssn), context),
      hash: secrets.hash(ssnDigits(ssn), SSN_HASH_PURPOSE),
    }),
    open: (sealed, context) => formatSsn(secrets.open(sealed, context)),
    hashes: (ssn) => secrets.hashCandidates(ssnDigits(ssn), SSN_HASH_PURPOSE),
    needsRenewal: (stored) => secrets.needsResealing(stored.sealed) || secrets.needsRehashing(stored.hash),
  };
}
