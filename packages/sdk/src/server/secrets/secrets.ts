import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Secrets at rest (docs/security.md, "Secrets at rest"): one service every module seals its stored
 * secrets with — TOTP secrets now, webhook secrets and OAuth tokens later. AES-256-GCM from
 * node:crypto with a random 96-bit IV per value; the id of the key that sealed a value is stored
 * with it, so that keys can be rotated: the first key of ATRIUM_SECRET_KEY seals, every listed key
 * opens. A value may be bound to a context (e.g. the row it belongs to) as additional authenticated
 * data: moved to another row it no longer opens.
 *
 * Sealed form: `sealed:v1:<key id>:<iv>:<ciphertext>:<tag>` (base64url parts).
 *
 * Values the server must find by equality without reading them (an SSN another contact already
 * has) get a keyed hash besides: HMAC-SHA256 under a key derived (HKDF-SHA256) from the secret key
 * and the hash's purpose, never the encryption key itself. Without the secret key a hash cannot be
 * recomputed, so a copy of the database does not give away a value by trying all candidates (there
 * are only 10⁹ SSNs). Hashed form: `hmac:v1:<key id>:<digest>` (base64url digest).
 */
export const SEALED_PREFIX = 'sealed:v1:';
export const HASHED_PREFIX = 'hmac:v1:';
export const SECRET_KEY_FILE = 'secret-key';
export const SECRET_KEY_REQUIRED =
  'ATRIUM_SECRET_KEY is required when DATABASE_URL is set: 32 random bytes as 64 hex digits (openssl rand -hex 32); ' +
  'list older keys after it, comma-separated, while rotating.';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

export interface Secrets {
  /** The id stored with every value sealed now (the first key's). */
  readonly currentKeyId: string;
  /** Encrypts and authenticates `plaintext`; `context` must be given again to open it. */
  seal(plaintext: string, context?: string): string;
  /** The plaintext of a sealed value; throws SecretOpenError when it was altered or its key is unknown. */
  open(sealed: string, context?: string): string;
  /** Whether a stored value is in the sealed form (older rows may still hold plaintext). */
  isSealed(value: string): boolean;
  /** Whether a sealed value was sealed with another key than the current one (rotate it). */
  needsResealing(sealed: string): boolean;
  /**
   * The keyed hash of `value` under the current key, to store beside a sealed value and find equal
   * values by. `purpose` (e.g. `'ssn'`) derives a key of its own: hashes of different purposes never
   * compare equal.
   */
  hash(value: string, purpose: string): string;
  /**
   * `value`'s hash under every configured key, newest first: look a stored hash up with all of them
   * (`IN (…)`), since rows hashed before a key rotation carry the old key's until they are rehashed.
   */
  hashCandidates(value: string, purpose: string): string[];
  /** Whether a stored hash was made with another key than the current one (make it again). */
  needsRehashing(hash: string): boolean;
}

/** A key's id: the first 8 bytes of its SHA-256, hex. Configuring keys needs no names. */
export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function parseOneKey(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
  }
  throw new Error('each key must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)');
}

/** The keys of ATRIUM_SECRET_KEY: comma-separated, the first seals; throws naming the problem. */
export function parseSecretKeys(value: string): Buffer[] {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error('must name at least one key');
  return parts.map(parseOneKey);
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

export function createSecrets(keys: Buffer[]): Secrets {
  if (keys.length === 0) throw new Error('createSecrets needs at least one key.');
  for (const key of keys) if (key.length !== KEY_BYTES) throw new Error('A secret key must be 32 bytes.');
  const byId = new Map(keys.map((key) => [secretKeyId(key), key] as const));
  const current = keys[0]!;
  const currentKeyId = secretKeyId(current);

  const hashKeys = new Map<string, Buffer>();
  /** The HMAC key of one secret key and purpose (HKDF-SHA256, no salt: the secret key is uniformly random). */
  const hashKey = (keyId: string, purpose: string) => {
    const cacheKey = `${keyId}:${purpose}`;
    let derived = hashKeys.get(cacheKey);
    if (!derived) {
      derived = Buffer.from(hkdfSync('sha256', byId.get(keyId)!, Buffer.alloc(0), `atrium keyed hash: ${purpose}`, 32));
      hashKeys.set(cacheKey, derived);
    }
    return derived;
  };
  const hashWith = (keyId: string, value: string, purpose: string) =>
    `${HASHED_PREFIX}${keyId}:${b64(createHmac('sha256', hashKey(keyId, purpose)).update(value, 'utf8').digest())}`;

  const parts = (sealed: string) => {
    if (!sealed.startsWith(SEALED_PREFIX)) throw new SecretOpenError('The value is not sealed.');
    const [keyId, iv, ciphertext, tag, ...rest] = sealed.slice(SEALED_PREFIX.length).split(':');
    if (!keyId || iv === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) {
      throw new SecretOpenError('The sealed value is malformed.');
    }
    return { keyId, iv, ciphertext, tag };
  };

  return {
    currentKeyId,
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${SEALED_PREFIX}${currentKeyId}:${b64(iv)}:${b64(ciphertext)}:${b64(cipher.getAuthTag())}`;
    },
    open(sealed, context) {
      const { keyId, iv, ciphertext, tag } = parts(sealed);
      const key = byId.get(keyId);
      if (!key) throw new SecretOpenError(`The value was sealed with an unknown key (${keyId}).`);
      const ivBytes = Buffer.from(iv, 'base64url');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
        throw new SecretOpenError('The sealed value is malformed.');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
        if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretOpenError('The sealed value was altered or belongs elsewhere.');
      }
    },
    isSealed: (value) => value.startsWith(SEALED_PREFIX),
    needsResealing: (sealed) => parts(sealed).keyId !== currentKeyId,
    hash: (value, purpose) => hashWith(currentKeyId, value, purpose),
    hashCandidates: (value, purpose) => [...byId.keys()].map((keyId) => hashWith(keyId, value, purpose)),
    needsRehashing: (hash) => !hash.startsWith(`${HASHED_PREFIX}${currentKeyId}:`),
  };
}

/**
 * The key of a database in memory (tests, benchmarks, throw-away previews): fixed, because its
 * data is thrown away with the process and seeded templates are copied between processes.
 */
const MEMORY_DATABASE_KEY = createHash('sha256').update('atrium: in-memory database, throw-away data').digest();

/**
 * The platform's secrets service from the configuration: ATRIUM_SECRET_KEY when set; required with
 * DATABASE_URL (PostgreSQL — several processes and backups must share one key); for the embedded
 * database a key generated on first start into `<DATA_DIR>/secret-key` (mode 0600), so that copying
 * DATA_DIR backs up the database with its key.
 */
export async function loadSecrets(options: {
  secretKey?: string | undefined;
  dataDir: string;
  databaseUrl?: string | undefined;
}): Promise<Secrets> {
  if (options.secretKey) return createSecrets(parseSecretKeys(options.secretKey));
  if (options.databaseUrl) throw new Error(SECRET_KEY_REQUIRED);
  if (options.dataDir.startsWith('memory://')) return createSecrets([MEMORY_DATABASE_KEY]);
  // A fresh data directory starts from the seeded snapshot, which was built in memory: its demo
  // values (TOTP secrets, SSNs) are sealed and hashed under the in-memory key. That key is listed
  // after the installation's own, so it opens them but never seals, and the start-time resealing
  // moves them to the installation's key. It is public, so it only ever guards demo data.
  return createSecrets([await localSecretKey(options.dataDir), MEMORY_DATABASE_KEY]);
}

/** Reads `<dir>/secret-key`, making it first when missing (link() lets one process win a race). */
export async function localSecretKey(dir: string): Promise<Buffer> {
  const file = path.join(dir, SECRET_KEY_FILE);
  try {
    return parseOneKey(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600 });
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(partial, { force: true });
  }
  return parseOneKey(await readFile(file, 'utf8'));
}
