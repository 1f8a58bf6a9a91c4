import { HOTP, Secret, TOTP } from 'otpauth';

/**
 * TOTP per RFC 6238 through the otpauth library: HMAC-SHA-1, 6 digits, 30-second steps, one step
 * of drift either way. The parameters are arguments so that the RFC test vectors (8 digits,
 * SHA-256/512) run through the same functions the sign-in uses.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DRIFT_STEPS = 1;

export interface OtpParameters {
  digits?: number;
  algorithm?: 'SHA1' | 'SHA256' | 'SHA512';
  period?: number;
}

export function newTotpSecret(): string {
  // 160 bits, the size RFC 4226 recommends for HMAC-SHA-1.
  return new Secret({ size: 20 }).base32;
}

function totpFor(
  secretBase32: string,
  parameters: OtpParameters = {},
  label?: { issuer: string; account: string },
): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(secretBase32),
    algorithm: parameters.algorithm ?? TOTP_ALGORITHM,
    digits: parameters.digits ?? TOTP_DIGITS,
    period: parameters.period ?? TOTP_PERIOD_SECONDS,
    ...(label ? { issuer: label.issuer, label: label.account } : {}),
  });
}

export function totpCode(secretBase32: string, at: Date, parameters: OtpParameters = {}): string {
  return totpFor(secretBase32, parameters).generate({ timestamp: at.getTime() });
}

export function hotpCode(
  secretBase32: string,
  counter: number,
  parameters: Omit<OtpParameters, 'period'> = {},
): string {
  return new HOTP({
    secret: Secret.fromBase32(secretBase32),
    algorithm: parameters.algorithm ?? TOTP_ALGORITHM,
    digits: parameters.digits ?? TOTP_DIGITS,
  }).generate({ counter });
}

/** The RFC 6238 time step a code at `at` belongs to. */
export function totpStep(at: Date, period = TOTP_PERIOD_SECONDS): number {
  return Math.floor(at.getTime() / 1000 / period);
}

/**
 * The time step the code matches within ±1 step of `at`, or null. Callers refuse a step not later
 * than the last one accepted, so that each code works once.
 */
export function matchTotpStep(
  secretBase32: string,
  code: string,
  at: Date,
  parameters: OtpParameters = {},
): number | null {
  if (!/^\d+$/.test(code)) return null;
  const delta = totpFor(secretBase32, parameters).validate({
    token: code,
    timestamp: at.getTime(),
    window: TOTP_DRIFT_STEPS,
  });
  return delta === null ? null : totpStep(at, parameters.period) + delta;
}

/** The enrolment URI an authenticator app reads from a QR code. */
export function otpauthUri(secretBase32: string, issuer: string, account: string): string {
  return totpFor(secretBase32, {}, { issuer, account }).toString();
}
