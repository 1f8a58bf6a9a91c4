import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTHeaderParameters } from 'jose';
import type { Clock } from './clock.js';
import { LoadingCache } from './loading-cache.js';
import { ALLOWED_ALGORITHMS, type LoadedKey } from './signing-keys.js';

/**
 * JWT access tokens (RFC 9068 profile, RFC 8725 practices): explicit `typ: at+jwt`, issuer and
 * audience checked, algorithms from an allow-list, one hour. `sid` names the refresh-token family
 * (the sign-in session) so that revoking the session also refuses its access tokens.
 */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;
/** Verified tokens a process remembers: about 7 MB of token text at most. */
const VERIFIED_TOKENS_KEPT = 10_000;

export interface AccessTokenClaims {
  /** `user` for a person's session; `client` for a machine client (client-credentials grant). */
  kind: 'user' | 'client';
  sub: string;
  username: string;
  /** The session (refresh-token family); for a client token, the client id. */
  sid: string;
  /** A client token's one role. */
  role?: string;
  jti: string;
  iat: number;
  exp: number;
}

export interface AccessTokenOptions {
  issuer: string;
  audience: string;
}

export class InvalidAccessToken extends Error {}

/** Where keys come from: the database (SigningKeys), or memory in unit tests. */
export interface KeySource {
  signingKey(): Promise<LoadedKey>;
  verificationKey(kid: string): Promise<LoadedKey | undefined>;
}

export class AccessTokens {
  constructor(
    private readonly keys: KeySource,
    private readonly clock: Clock,
    private readonly options: AccessTokenOptions,
  ) {}

  async issue(subject: {
    userId: string;
    username: string;
    sessionId: string;
  }): Promise<{ token: string; expiresIn: number; issuedAt: number }> {
    const key = await this.keys.signingKey();
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    const token = await new SignJWT({ username: subject.username, sid: subject.sessionId, token_use: 'access' })
      .setProtectedHeader({ alg: key.algorithm, typ: ACCESS_TOKEN_TYPE, kid: key.kid })
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setSubject(subject.userId)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS)
      .sign(key.privateKey);
    return { token, expiresIn: ACCESS_TOKEN_LIFETIME_SECONDS, issuedAt };
  }

  /**
   * A machine client's token (client-credentials grant): `token_use: client`, the client id as
   * subject and `sid`, its name as `username` and its one role as `role`. One hour, not refreshable.
   */
  async issueForClient(client: {
    clientId: string;
    name: string;
    role: string;
  }): Promise<{ token: string; expiresIn: number; issuedAt: number }> {
    const key = await this.keys.signingKey();
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    const token = await new SignJWT({
      username: client.name,
      sid: client.clientId,
      role: client.role,
      token_use: 'client',
    })
      .setProtectedHeader({ alg: key.algorithm, typ: ACCESS_TOKEN_TYPE, kid: key.kid })
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setSubject(client.clientId)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS)
      .sign(key.privateKey);
    return { token, expiresIn: ACCESS_TOKEN_LIFETIME_SECONDS, issuedAt };
  }

  /**
   * Tokens already verified, by their exact text. A signature check costs more than everything else
   * on a request; a token whose text is byte-for-byte one we verified has the same signature, issuer,
   * audience and claims, so only its expiry needs checking again — on every use. Least recently used
   * tokens leave first; the authenticator empties it when the identity revision moves (a signing key
   * retired or removed).
   */
  private readonly verified = new LoadingCache<AccessTokenClaims>(VERIFIED_TOKENS_KEPT);

  /** The token's claims, or InvalidAccessToken for anything forged, expired, foreign or malformed. */
  async verify(token: string): Promise<AccessTokenClaims> {
    const claims = await this.verified.get(token, () => this.verifySignature(token));
    if (claims.exp * 1000 <= this.clock.now().getTime()) {
      this.verified.delete(token);
      throw new InvalidAccessToken('"exp" claim timestamp check failed');
    }
    return claims;
  }

  forgetVerified(): void {
    this.verified.clear();
  }

  private async verifySignature(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header: JWTHeaderParameters) => {
          const key = header.kid ? await this.keys.verificationKey(header.kid) : undefined;
          // The key decides the algorithm, never the token's header.
          if (!key || key.algorithm !== header.alg) throw new InvalidAccessToken('unknown signing key');
          return key.publicKey;
        },
        {
          algorithms: [...ALLOWED_ALGORITHMS],
          issuer: this.options.issuer,
          audience: this.options.audience,
          typ: ACCESS_TOKEN_TYPE,
          currentDate: this.clock.now(),
          requiredClaims: ['sub', 'sid', 'jti', 'iat', 'exp'],
        },
      );
      const kind = payload.token_use === 'access' ? 'user' : payload.token_use === 'client' ? 'client' : null;
      if (typeof payload.sid !== 'string' || typeof payload.username !== 'string' || !kind) {
        throw new InvalidAccessToken('missing claims');
      }
      if (kind === 'client' && typeof payload.role !== 'string') throw new InvalidAccessToken('missing claims');
      return {
        kind,
        ...(kind === 'client' ? { role: payload.role as string } : {}),
        sub: payload.sub!,
        username: payload.username,
        sid: payload.sid,
        jti: payload.jti!,
        iat: payload.iat!,
        exp: payload.exp!,
      };
    } catch (error) {
      if (error instanceof InvalidAccessToken) throw error;
      throw new InvalidAccessToken(error instanceof Error ? error.message : 'invalid token');
    }
  }
}
