import { and, eq, isNull } from 'drizzle-orm';
import * as client from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import { identityError } from './identity-errors.js';
import type { IdentityServices } from './identity-services.js';
import { newOpaqueToken, sha256Hex } from './secret-tokens.js';
import { federatedIdentity, oidcAuthorization, oidcProvider, user } from './tables.js';
import type { UserRecord } from './user-store.js';

/**
 * Sign-in through a carrier's own OpenID Connect provider: authorization code flow with PKCE (S256),
 * a random state and nonce kept on the server for 10 minutes and used once, the ID token checked by
 * openid-client (issuer, audience, signature, nonce, expiry). A provider account signs in the local
 * user it was linked to; with `link_by_email`, a verified e-mail equal to a username links on first
 * use. Second factors are the provider's business: a federated sign-in does not ask for local MFA.
 */
export type OidcProviderRecord = typeof oidcProvider.$inferSelect;
export type AuthorizationPurpose = 'sign-in' | 'link';

export const DEFAULT_OIDC_SCOPES = ['openid', 'email', 'profile', 'phone'];
export const AUTHORIZATION_LIFETIME_SECONDS = 10 * 60;
export const LOGIN_ERROR = 'There was an error attempting to log in';
export const LINK_INFO_MISSING = 'Sorry, but we could not retrieve your info from social account to link';
export const LINK_SUCCESS = 'Account linked successfully. Now you can login using linked account!';

export interface ProviderIdentity {
  provider: OidcProviderRecord;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Issuers must be https; plain http only on this machine (development and tests). */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'The issuer must be a URL.';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'The issuer must be an https:// URL.';
}

/**
 * A redirect URI an administrator registers for a provider: an absolute https URL without a
 * fragment (RFC 6749 §3.1.2), plain http only on this machine (development and tests).
 */
export function registeredRedirectUriProblem(redirectUri: string): string | null {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return 'A redirect URI must be an absolute URL.';
  }
  if (url.hash || redirectUri.includes('#')) return 'A redirect URI must not have a fragment.';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'A redirect URI must be an https:// URL (http:// only on localhost).';
}

/**
 * The app's own return page on its public origin (ATRIUM_PUBLIC_URL, e.g. https://claims.example),
 * allowed for every provider without registering it; undefined when the variable is unset.
 */
export function appRedirectUri(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const publicUrl = env.ATRIUM_PUBLIC_URL?.trim();
  if (!publicUrl) return undefined;
  try {
    const url = new URL(publicUrl);
    return url.protocol === 'https:' || url.protocol === 'http:' ? `${url.origin}/login/idpresponse` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why an authorization may not name this redirect URI, or null: it must be, character for
 * character, one the provider lists in redirect_uris or the app's own return page. Anything else
 * would let whoever starts the authorization receive the provider's code for another person (an
 * attacker sends the victim the authorization URL and reads the code at their own site).
 */
export function redirectUriProblem(
  provider: Pick<OidcProviderRecord, 'redirectUris'>,
  redirectUri: string,
): string | null {
  if (provider.redirectUris.includes(redirectUri) || redirectUri === appRedirectUri()) return null;
  return `The redirect URI '${redirectUri.slice(0, 200)}' is not registered for this identity provider: an administrator adds it to the provider's redirect_uris.`;
}

export class OidcFederation {
  private readonly configurations = new Map<string, Promise<client.Configuration>>();

  constructor(
    private readonly services: IdentityServices,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Forgets a provider's discovered metadata (after it is changed or removed). */
  forget(providerId: string): void {
    this.configurations.delete(providerId);
  }

  async enabledProvider(providerId: string): Promise<OidcProviderRecord> {
    const [provider] = /^[0-9a-f-]{36}$/i.test(providerId)
      ? await this.services.db.select().from(oidcProvider).where(eq(oidcProvider.id, providerId)).limit(1)
      : [];
    if (!provider?.enabled) {
      throw identityError('InvalidParameterException', 'Unknown identity provider.', { pointer: '/provider_id' });
    }
    return provider;
  }

  private configurationFor(provider: OidcProviderRecord): Promise<client.Configuration> {
    let configuration = this.configurations.get(provider.id);
    if (!configuration) {
      const insecure = new URL(provider.issuer).protocol === 'http:';
      configuration = client
        .discovery(
          new URL(provider.issuer),
          provider.clientId,
          undefined,
          provider.clientSecret ? client.ClientSecretBasic(this.services.oidcSecrets.open(provider)!) : client.None(),
          insecure ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .catch((error: unknown) => {
          this.configurations.delete(provider.id);
          throw error;
        });
      this.configurations.set(provider.id, configuration);
    }
    return configuration;
  }

  /** Starts an authorization request; the client sends the user to `authorization_url`. */
  async begin(
    providerId: string,
    redirectUri: string,
    purpose: AuthorizationPurpose,
    userId: string | null,
  ): Promise<{ authorization_url: string; state: string }> {
    const provider = await this.enabledProvider(providerId);
    const problem = redirectUriProblem(provider, redirectUri);
    if (problem) throw identityError('InvalidParameterException', problem, { pointer: '/redirect_uri' });
    const configuration = await this.discover(provider);
    const state = newOpaqueToken();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const now = this.services.clock.now();
    await this.services.db.insert(oidcAuthorization).values({
      stateHash: sha256Hex(state),
      providerId: provider.id,
      purpose,
      userId,
      codeVerifier,
      nonce,
      redirectUri,
      createdAt: now,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_LIFETIME_SECONDS * 1000),
    });
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: provider.scopes.join(' '),
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorization_url: url.href, state };
  }

  /**
   * Finishes an authorization request with the callback's parameters: checks the state (once,
   * within 10 minutes, for the same purpose and user), redeems the code with the PKCE verifier and
   * verifies the ID token and its nonce.
   */
  async finish(
    callback: { state: string; code?: string; iss?: string; error?: string; error_description?: string },
    purpose: AuthorizationPurpose,
    userId: string | null,
  ): Promise<ProviderIdentity> {
    const now = this.services.clock.now();
    const [pending] = await this.services.db
      .update(oidcAuthorization)
      .set({ consumedAt: now })
      .where(and(eq(oidcAuthorization.stateHash, sha256Hex(callback.state)), isNull(oidcAuthorization.consumedAt)))
      .returning();
    if (!pending || pending.purpose !== purpose || pending.userId !== userId || pending.expiresAt <= now) {
      throw identityError('NotAuthorizedException', 'Invalid or expired authorization state.');
    }
    const [provider] = await this.services.db
      .select()
      .from(oidcProvider)
      .where(eq(oidcProvider.id, pending.providerId))
      .limit(1);
    if (!provider?.enabled) throw identityError('NotAuthorizedException', LOGIN_ERROR);
    const currentUrl = new URL(pending.redirectUri);
    for (const key of ['code', 'state', 'iss', 'error', 'error_description'] as const) {
      const value = callback[key];
      if (value !== undefined) currentUrl.searchParams.set(key, value);
    }
    try {
      const configuration = await this.discover(provider);
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: callback.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims?.sub) throw new Error('The ID token has no subject.');
      let details: Record<string, unknown> = claims;
      if (typeof claims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
        details = { ...(await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims };
      }
      return {
        provider,
        subject: claims.sub,
        email: typeof details.email === 'string' ? details.email.toLowerCase() : null,
        emailVerified: details.email_verified === true,
        name: typeof details.name === 'string' ? details.name : null,
      };
    } catch (error) {
      this.log.warn({ err: error, provider: provider.name }, 'OpenID Connect callback failed');
      throw identityError('NotAuthorizedException', LOGIN_ERROR);
    }
  }

  /** The local user a provider account signs in as, linking by verified e-mail when the provider allows. */
  async userFor(identity: ProviderIdentity): Promise<UserRecord | undefined> {
    const db = this.services.db;
    const [linked] = await db
      .select({ user })
      .from(federatedIdentity)
      .innerJoin(user, eq(federatedIdentity.userId, user.id))
      .where(
        and(eq(federatedIdentity.providerId, identity.provider.id), eq(federatedIdentity.subject, identity.subject)),
      )
      .limit(1);
    if (linked) return linked.user;
    if (!identity.provider.linkByEmail || !identity.email || !identity.emailVerified) return undefined;
    const byEmail = await this.services.users.findByUsername(identity.email);
    if (!byEmail) return undefined;
    await this.link(identity, byEmail.id);
    return byEmail;
  }

  /** Links a provider account to a local user; a provider account belongs to one user only. */
  async link(identity: ProviderIdentity, userId: string): Promise<void> {
    const [existing] = await this.services.db
      .select()
      .from(federatedIdentity)
      .where(
        and(eq(federatedIdentity.providerId, identity.provider.id), eq(federatedIdentity.subject, identity.subject)),
      )
      .limit(1);
    if (existing && existing.userId !== userId) {
      throw identityError('UsernameExistsException', 'This external account is already linked to another user.');
    }
    if (!existing) {
      await this.services.db.insert(federatedIdentity).values({
        providerId: identity.provider.id,
        subject: identity.subject,
        userId,
        linkedAt: this.services.clock.now(),
      });
    }
  }

  private async discover(provider: OidcProviderRecord): Promise<client.Configuration> {
    try {
      return await this.configurationFor(provider);
    } catch (error) {
      this.log.warn({ err: error, provider: provider.name }, 'OpenID Connect discovery failed');
      throw identityError('UnknownError', 'The identity provider could not be reached.');
    }
  }
}
