import * as client from 'openid-client';
import type { VendorEnvironment, VendorId } from '../../shared/vendors.js';
import { endpointsOf, insecureAllowed, type VendorEndpoints } from './endpoints.js';

/**
 * The OAuth 2.0 client every vendor connection goes through (openid-client, already the identity
 * module's OIDC client): authorization code with state and PKCE (S256), code redemption, refresh
 * and revocation, against the vendor's fixed endpoints. Both vendors authenticate the app with
 * HTTP Basic (client id and secret), as their references ask.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds the access token lives. */
  expiresIn: number;
  /** QuickBooks' `x_refresh_token_expires_in`: seconds the refresh token lives. */
  refreshExpiresIn: number | null;
}

export interface AppCredentials {
  vendor: VendorId;
  environment: VendorEnvironment;
  clientId: string;
  clientSecret: string;
}

export function oauthConfiguration(app: AppCredentials): {
  configuration: client.Configuration;
  endpoints: VendorEndpoints;
} {
  const endpoints = endpointsOf(app.vendor, app.environment);
  const configuration = new client.Configuration(
    {
      // Neither vendor is an OpenID issuer for this flow; the authorization server's own origin names it.
      issuer: new URL(endpoints.authorization).origin,
      authorization_endpoint: endpoints.authorization,
      token_endpoint: endpoints.token,
      ...(endpoints.revocation ? { revocation_endpoint: endpoints.revocation } : {}),
    },
    app.clientId,
    undefined,
    client.ClientSecretBasic(app.clientSecret),
  );
  if (insecureAllowed()) client.allowInsecureRequests(configuration);
  return { configuration, endpoints };
}

export async function authorizationUrl(
  app: AppCredentials,
  redirectUri: string,
): Promise<{ url: string; state: string; codeVerifier: string }> {
  const { configuration, endpoints } = oauthConfiguration(app);
  const state = client.randomState();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: endpoints.scope,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, state, codeVerifier };
}

const toTokenSet = (response: client.TokenEndpointResponse): TokenSet => {
  const refreshExpires = (response as Record<string, unknown>).x_refresh_token_expires_in;
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? null,
    expiresIn: response.expires_in ?? 3600,
    refreshExpiresIn: typeof refreshExpires === 'number' ? refreshExpires : null,
  };
};

/** Redeems the callback's code; the library checks the state and sends the PKCE verifier. */
export async function redeemCode(
  app: AppCredentials,
  callbackUrl: URL,
  expected: { state: string; codeVerifier: string },
): Promise<TokenSet> {
  const { configuration } = oauthConfiguration(app);
  const response = await client.authorizationCodeGrant(configuration, callbackUrl, {
    expectedState: expected.state,
    pkceCodeVerifier: expected.codeVerifier,
  });
  return toTokenSet(response);
}

export async function refresh(app: AppCredentials, refreshToken: string): Promise<TokenSet> {
  const { configuration } = oauthConfiguration(app);
  const response = await client.refreshTokenGrant(configuration, refreshToken);
  const tokens = toTokenSet(response);
  // A vendor that does not rotate refresh tokens answers none: the old one stays valid.
  return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
}

export async function revoke(app: AppCredentials, token: string): Promise<void> {
  const { configuration, endpoints } = oauthConfiguration(app);
  if (!endpoints.revocation) return;
  await client.tokenRevocation(configuration, token);
}

/** A GET with the bearer token through the library (DocuSign userinfo). */
export async function getProtected(app: AppCredentials, accessToken: string, url: string): Promise<unknown> {
  const { configuration } = oauthConfiguration(app);
  const response = await client.fetchProtectedResource(configuration, accessToken, new URL(url), 'GET');
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}.`);
  return response.json();
}

/** What a failed OAuth exchange says, in words an administrator can act on. */
export function oauthErrorMessage(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError) {
    return error.error_description ?? `The vendor refused the authorization (${error.error}).`;
  }
  if (error instanceof client.ResponseBodyError) {
    return error.error_description ?? `The vendor refused the token request (${error.error}).`;
  }
  if (error instanceof Error && 'cause' in error && error.cause instanceof Error && error.cause.message) {
    return `${error.message} ${error.cause.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
