import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { AccessTokens, InvalidAccessToken, type KeySource } from './access-tokens.js';
import { ManualClock } from './clock.js';
import type { LoadedKey } from './signing-keys.js';

async function memoryKey(kid: string): Promise<LoadedKey> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { kid, algorithm: 'EdDSA', privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid } };
}

const options = { issuer: 'urn:atrium:identity', audience: 'urn:atrium:api' };
const subject = {
  userId: '00000000-0000-4000-8000-000000000001',
  username: 'a@atrium.test',
  sessionId: '00000000-0000-4000-8000-000000000002',
};
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function setup() {
  const clock = new ManualClock();
  const key = await memoryKey('k1');
  const keys: KeySource = {
    signingKey: async () => key,
    verificationKey: async (kid) => (kid === key.kid ? key : undefined),
  };
  const tokens = new AccessTokens(keys, clock, options);
  const iat = Math.floor(clock.now().getTime() / 1000);
  const claims = {
    username: subject.username,
    sid: subject.sessionId,
    token_use: 'access',
    iss: options.issuer,
    aud: options.audience,
    sub: subject.userId,
    jti: 'j1',
    iat,
    exp: iat + 3600,
  };
  return { clock, key, tokens, claims };
}

async function sign(privateKey: CryptoKey, header: Record<string, unknown>, claims: Record<string, unknown>) {
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(privateKey);
}

describe('access tokens', () => {
  it('issues EdDSA at+jwt tokens for one hour that verify', async () => {
    const { tokens, clock } = await setup();
    const issued = await tokens.issue(subject);
    expect(issued.expiresIn).toBe(3600);
    const [header] = issued.token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({
      alg: 'EdDSA',
      typ: 'at+jwt',
      kid: 'k1',
    });
    const claims = await tokens.verify(issued.token);
    expect(claims).toMatchObject({ sub: subject.userId, username: subject.username, sid: subject.sessionId });
    clock.advanceSeconds(3600);
    await expect(tokens.verify(issued.token)).rejects.toBeInstanceOf(InvalidAccessToken);
  });

  it("refuses alg 'none'", async () => {
    const { tokens, claims } = await setup();
    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt', kid: 'k1' })}.${b64(claims)}.`;
    await expect(tokens.verify(unsigned)).rejects.toBeInstanceOf(InvalidAccessToken);
  });

  it('refuses algorithm confusion: HS256 keyed with the public key', async () => {
    const { tokens, claims, key } = await setup();
    const input = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' })}.${b64(claims)}`;
    for (const secret of [JSON.stringify(key.publicJwk), String(key.publicJwk.x)]) {
      const signature = createHmac('sha256', secret).update(input).digest('base64url');
      await expect(tokens.verify(`${input}.${signature}`)).rejects.toBeInstanceOf(InvalidAccessToken);
    }
  });

  it('refuses a token signed by another key under the same kid', async () => {
    const { tokens, claims } = await setup();
    const stranger = await memoryKey('k1');
    await expect(
      tokens.verify(await sign(stranger.privateKey, { alg: 'EdDSA', typ: 'at+jwt', kid: 'k1' }, claims)),
    ).rejects.toBeInstanceOf(InvalidAccessToken);
  });

  it('refuses a wrong typ, issuer or audience, a missing sid, and a tampered payload', async () => {
    const { tokens, claims, key } = await setup();
    const header = { alg: 'EdDSA', typ: 'at+jwt', kid: 'k1' };
    const cases = [
      await sign(key.privateKey, { ...header, typ: 'JWT' }, claims),
      await sign(key.privateKey, { alg: 'EdDSA', kid: 'k1' }, claims),
      await sign(key.privateKey, header, { ...claims, iss: 'https://evil.example' }),
      await sign(key.privateKey, header, { ...claims, aud: 'another-api' }),
      await sign(key.privateKey, header, { ...claims, sid: undefined }),
      await sign(key.privateKey, header, { ...claims, token_use: 'id' }),
    ];
    const genuine = await sign(key.privateKey, header, claims);
    const [h, , s] = genuine.split('.');
    cases.push(`${h}.${b64({ ...claims, sub: 'someone-else' })}.${s}`);
    cases.push('not-a-jwt');
    for (const token of cases) await expect(tokens.verify(token)).rejects.toBeInstanceOf(InvalidAccessToken);
    await expect(tokens.verify(genuine)).resolves.toMatchObject({ sub: subject.userId });
  });
});

describe('verified-token cache', () => {
  it('still refuses a token verified moments before it expired', async () => {
    const { tokens, clock } = await setup();
    const issued = await tokens.issue(subject);
    clock.advanceSeconds(3570);
    await expect(tokens.verify(issued.token)).resolves.toMatchObject({ sub: subject.userId });
    clock.advanceSeconds(30);
    await expect(tokens.verify(issued.token)).rejects.toBeInstanceOf(InvalidAccessToken);
  });
});
