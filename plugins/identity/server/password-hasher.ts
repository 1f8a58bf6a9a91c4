import argon2 from 'argon2';

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane). Unknown usernames are
 * checked against a dummy hash made with the same parameters, so that they cost the same time as a
 * wrong password for a real user.
 */
export interface PasswordHashingOptions {
  memoryCost?: number;
  timeCost?: number;
  parallelism?: number;
  /**
   * Called once per argon2 verification, real or dummy. Metrics (and the enumeration tests) use
   * it to see that an unknown username costs a verification too, without timing anything.
   */
  onVerify?: () => void;
}

export const DEFAULT_PASSWORD_HASHING: Required<Omit<PasswordHashingOptions, 'onVerify'>> = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export class PasswordHasher {
  private readonly options: Required<Omit<PasswordHashingOptions, 'onVerify'>>;
  private readonly onVerify: (() => void) | undefined;
  private dummyHash: Promise<string> | null = null;

  constructor({ onVerify, ...options }: PasswordHashingOptions = {}) {
    this.options = { ...DEFAULT_PASSWORD_HASHING, ...options };
    this.onVerify = onVerify;
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, ...this.options });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    this.onVerify?.();
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the time a real verification would, for a username that does not exist. */
  async verifyDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash('atrium-dummy-password-for-unknown-users');
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
