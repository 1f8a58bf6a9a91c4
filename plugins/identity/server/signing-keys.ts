import { randomUUID } from 'node:crypto';
import { asc, isNull } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import { signingKey } from './tables.js';

/**
 * Access-token signing keys. The first start generates an Ed25519 key pair and stores it, so every
 * server process on the database signs and verifies with the same keys. Verification accepts only
 * the algorithms of the allow-list, and only with a key made for that algorithm: a token naming a
 * different algorithm than its key (algorithm confusion) or `none` is refused.
 */
export const SIGNING_ALGORITHM = 'EdDSA';
export const ALLOWED_ALGORITHMS = ['EdDSA', 'ES256'] as const;
export type AllowedAlgorithm = (typeof ALLOWED_ALGORITHMS)[number];

export interface LoadedKey {
  kid: string;
  algorithm: AllowedAlgorithm;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

interface Keyring {
  signing: LoadedKey;
  byKid: Map<string, LoadedKey>;
}

const RELOAD_INTERVAL_MS = 60_000;

export class SigningKeys {
  private keyring: Promise<Keyring> | null = null;
  private loadedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async signingKey(): Promise<LoadedKey> {
    return (await this.load()).signing;
  }

  /** The key for a token's `kid`; a kid not seen yet reloads (another process may have rotated). */
  async verificationKey(kid: string): Promise<LoadedKey | undefined> {
    const keyring = await this.load();
    const known = keyring.byKid.get(kid);
    if (known || Date.now() - this.loadedAt < RELOAD_INTERVAL_MS) return known;
    this.keyring = null;
    return (await this.load()).byKid.get(kid);
  }

  /** Read the keys again on next use (a key was retired or removed, perhaps by another process). */
  forget(): void {
    this.keyring = null;
  }

  async publicJwks(): Promise<{ keys: JWK[] }> {
    const keyring = await this.load();
    return { keys: [...keyring.byKid.values()].map((key) => key.publicJwk) };
  }

  private load(): Promise<Keyring> {
    if (!this.keyring) {
      this.loadedAt = Date.now();
      this.keyring = this.readOrCreate().catch((error: unknown) => {
        this.keyring = null;
        throw error;
      });
    }
    return this.keyring;
  }

  private async readOrCreate(): Promise<Keyring> {
    let rows = await this.db
      .select()
      .from(signingKey)
      .where(isNull(signingKey.retiredAt))
      .orderBy(asc(signingKey.createdAt), asc(signingKey.kid));
    if (rows.length === 0) {
      await this.generate();
      rows = await this.db
        .select()
        .from(signingKey)
        .where(isNull(signingKey.retiredAt))
        .orderBy(asc(signingKey.createdAt), asc(signingKey.kid));
    }
    const loaded: LoadedKey[] = [];
    for (const row of rows) {
      if (!(ALLOWED_ALGORITHMS as readonly string[]).includes(row.algorithm)) continue;
      const algorithm = row.algorithm as AllowedAlgorithm;
      loaded.push({
        kid: row.kid,
        algorithm,
        privateKey: (await importJWK(row.privateJwk as JWK, algorithm)) as CryptoKey,
        publicKey: (await importJWK(row.publicJwk as JWK, algorithm)) as CryptoKey,
        publicJwk: row.publicJwk as JWK,
      });
    }
    // Processes that raced to create a key all settle on the oldest one.
    const signing = loaded[0];
    if (!signing) throw new Error('No usable access-token signing key.');
    return { signing, byKid: new Map(loaded.map((key) => [key.kid, key])) };
  }

  private async generate(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
    await this.db
      .insert(signingKey)
      .values({ kid, algorithm: SIGNING_ALGORITHM, privateJwk, publicJwk, createdAt: this.clock.now() })
      .onConflictDoNothing();
  }
}
