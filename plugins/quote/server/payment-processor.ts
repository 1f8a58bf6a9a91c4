import { randomBytes } from 'node:crypto';

/**
 * Where payment methods are tokenised. Quote stores only what a processor gives back — its token,
 * the method's type, the last four digits and the expiry — never a card or account number. The
 * embedded default is a test processor (like the mail outbox): it accepts its own test tokens
 * (`tok_test_…`) and tokenises test cards for demos and tests. A real processor implements the same
 * interface.
 */
export interface TokenisedMethod {
  token: string;
  type: 'card' | 'ach';
  last4: string;
  expiry: string | null;
}

export interface PaymentProcessor {
  readonly name: string;
  /** Checks a token the browser got from the processor; answers the method it stands for, or null. */
  verify(input: TokenisedMethod): Promise<TokenisedMethod | null>;
}

const TEST_TOKEN = /^tok_test_[A-Za-z0-9]{8,64}$/;

export const testPaymentProcessor: PaymentProcessor = {
  name: 'test',
  async verify(input) {
    return TEST_TOKEN.test(input.token) ? { ...input } : null;
  },
};

/** A test token as the test processor's browser widget hands it out. */
export const newTestToken = () => `tok_test_${randomBytes(12).toString('hex')}`;

/** Digits only (spaces and dashes dropped) of a value that may be a card or account number. */
const digitsOf = (value: string) => value.replace(/[\s-]/g, '');

/** True for something that looks like a full card (13–19 digits) or bank account number (8+ digits). */
export function looksLikeAccountNumber(value: unknown): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const digits = digitsOf(String(value));
  return /^\d{8,19}$/.test(digits);
}
