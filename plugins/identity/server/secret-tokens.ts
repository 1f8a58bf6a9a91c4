import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Opaque secrets handed to clients (refresh tokens, challenge sessions): 256 random bits. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of an opaque secret: its SHA-256, so a leaked table grants nothing. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A six-digit one-time code from the CSPRNG, leading zeros kept. */
export function newNumericCode(digits = 6): string {
  return randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, '0');
}

export function equalHashes(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
