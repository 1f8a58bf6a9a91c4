import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSecrets,
  HASHED_PREFIX,
  loadSecrets,
  parseSecretKeys,
  SECRET_KEY_REQUIRED,
  SecretOpenError,
  SEALED_PREFIX,
  secretKeyId,
} from './secrets.js';

const key = () => randomBytes(32);

describe('secrets service', () => {
  it('seals with AES-256-GCM: the stored value names its key and hides the plaintext', () => {
    const k = key();
    const secrets = createSecrets([k]);
    const sealed = secrets.seal('JBSWY3DPEHPK3PXP');
    expect(sealed.startsWith(`${SEALED_PREFIX}${secretKeyId(k)}:`)).toBe(true);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(secrets.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed); // a fresh IV every time
    expect(secrets.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(secrets.isSealed(sealed)).toBe(true);
    expect(secrets.isSealed('JBSWY3DPEHPK3PXP')).toBe(false);
  });

  it('detects tampering with the ciphertext, the tag or the IV, and a value moved to another context', () => {
    const secrets = createSecrets([key()]);
    const sealed = secrets.seal('top secret', 'user:1');
    const [prefix1, prefix2, keyId, iv, ciphertext, tag] = sealed.split(':');
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString('base64url');
    };
    const variants = [
      [prefix1, prefix2, keyId, iv, flip(ciphertext!), tag],
      [prefix1, prefix2, keyId, iv, ciphertext, flip(tag!)],
      [prefix1, prefix2, keyId, flip(iv!), ciphertext, tag],
    ].map((parts) => parts.join(':'));
    for (const altered of variants) expect(() => secrets.open(altered, 'user:1')).toThrow(SecretOpenError);
    expect(() => secrets.open(sealed, 'user:2')).toThrow(SecretOpenError);
    expect(() => secrets.open(sealed)).toThrow(SecretOpenError);
    expect(() => secrets.open('sealed:v1:abc')).toThrow(SecretOpenError);
    expect(secrets.open(sealed, 'user:1')).toBe('top secret');
  });

  it('rotates: the new key seals, the old one still opens, and old values are reported for resealing', () => {
    const oldKey = key();
    const newKey = key();
    const before = createSecrets([oldKey]);
    const sealedBefore = before.seal('value');
    const during = createSecrets(parseSecretKeys(`${newKey.toString('hex')}, ${oldKey.toString('base64')}`));
    expect(during.currentKeyId).toBe(secretKeyId(newKey));
    expect(during.open(sealedBefore)).toBe('value');
    expect(during.needsResealing(sealedBefore)).toBe(true);
    const resealed = during.seal(during.open(sealedBefore));
    expect(during.needsResealing(resealed)).toBe(false);
    // Once the old key is dropped, only resealed values open.
    const after = createSecrets([newKey]);
    expect(after.open(resealed)).toBe('value');
    expect(() => after.open(sealedBefore)).toThrow(/unknown key/);
  });

  it('hashes with a key of its own: HMAC-SHA256 keyed by the secret key and the purpose', () => {
    const k = key();
    const secrets = createSecrets([k]);
    const hash = secrets.hash('123456789', 'ssn');
    expect(hash.startsWith(`${HASHED_PREFIX}${secretKeyId(k)}:`)).toBe(true);
    expect(hash).not.toContain('123456789');
    // Deterministic (equal values compare equal), and nothing like a plain SHA-256 of the value.
    expect(secrets.hash('123456789', 'ssn')).toBe(hash);
    expect(hash).not.toContain(createHash('sha256').update('123456789').digest('base64url'));
    // The HMAC key is derived (HKDF-SHA256) from the secret key and the purpose, never the key itself.
    const derived = Buffer.from(hkdfSync('sha256', k, Buffer.alloc(0), 'atrium keyed hash: ssn', 32));
    const expected = createHmac('sha256', derived).update('123456789').digest('base64url');
    expect(hash).toBe(`${HASHED_PREFIX}${secretKeyId(k)}:${expected}`);
    expect(hash.endsWith(createHmac('sha256', k).update('123456789').digest('base64url'))).toBe(false);
    expect(secrets.hash('123456789', 'tax-id')).not.toBe(hash);
    expect(secrets.hash('123456780', 'ssn')).not.toBe(hash);
    // Another key, another hash: without the key a copied database gives nothing to compare against.
    expect(createSecrets([key()]).hash('123456789', 'ssn')).not.toBe(hash);
  });

  it('finds values hashed under an older key while keys rotate, and reports them for rehashing', () => {
    const oldKey = key();
    const newKey = key();
    const before = createSecrets([oldKey]).hash('123456789', 'ssn');
    const during = createSecrets([newKey, oldKey]);
    const candidates = during.hashCandidates('123456789', 'ssn');
    expect(candidates).toEqual([during.hash('123456789', 'ssn'), before]);
    expect(during.needsRehashing(before)).toBe(true);
    expect(during.needsRehashing(candidates[0]!)).toBe(false);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => parseSecretKeys('short')).toThrow(/32 bytes/);
    expect(() => parseSecretKeys('')).toThrow(/at least one key/);
    expect(() => parseSecretKeys('ab'.repeat(31))).toThrow(/32 bytes/);
  });

  it('needs ATRIUM_SECRET_KEY with DATABASE_URL, and makes a 0600 key file in DATA_DIR otherwise', async () => {
    await expect(loadSecrets({ dataDir: '/nonexistent', databaseUrl: 'postgres://x/y' })).rejects.toThrow(
      SECRET_KEY_REQUIRED,
    );
    const dir = await mkdtemp(path.join(tmpdir(), 'atrium-secrets-'));
    try {
      const first = await loadSecrets({ dataDir: dir });
      const file = path.join(dir, 'secret-key');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
      const again = await loadSecrets({ dataDir: dir });
      expect(again.open(first.seal('kept'))).toBe('kept');
      // The seeded snapshot's demo values were sealed in memory: a data directory opens them, and
      // marks them for resealing under its own key, which is what it seals with.
      const snapshot = await loadSecrets({ dataDir: 'memory://' });
      const demo = snapshot.seal('123-45-6789', 'contact:1');
      expect(again.open(demo, 'contact:1')).toBe('123-45-6789');
      expect(again.needsResealing(demo)).toBe(true);
      expect(again.currentKeyId).not.toBe(snapshot.currentKeyId);
      expect(() => snapshot.open(again.seal('mine'))).toThrow(SecretOpenError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
