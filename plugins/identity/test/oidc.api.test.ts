import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEALED_PREFIX } from '@atrium/sdk/server';
import { oidcProvider } from '../server/tables.js';
import { bearer, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';
import { startOpenIdProvider, type TestOpenIdProvider } from './openid-provider.js';

describe('external OpenID Connect providers, against a real OpenID Provider', () => {
  let server: IdentityTestServer;
  let idp: TestOpenIdProvider;
  let providerId: string;
  let adminHeaders: Record<string, string>;

  beforeAll(async () => {
    [server, idp] = await Promise.all([startIdentityServer(), startOpenIdProvider()]);
    adminHeaders = bearer((await server.tokensFor('admin@atrium.test')).access_token);
    const created = await server.post(
      '/api/identity/oidc-providers',
      {
        name: 'Carrier SSO',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        redirect_uris: [idp.redirectUri],
      },
      adminHeaders,
    );
    expect(created.status).toBe(201);
    providerId = (await created.json()).id;
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  const start = async (path: string, headers: Record<string, string> = {}) => {
    const response = await server.post(path, { provider_id: providerId, redirect_uri: idp.redirectUri }, headers);
    expect(response.status).toBe(200);
    return (await response.json()) as { authorization_url: string; state: string };
  };

  it('is administered with a permission and listed publicly by name', async () => {
    const adjuster = bearer((await server.tokensFor('adjuster@atrium.test')).access_token);
    const refused = await server.post(
      '/api/identity/oidc-providers',
      { name: 'X', issuer: idp.issuer, client_id: 'x' },
      adjuster,
    );
    expect(refused.status).toBe(403);
    const insecure = await server.post(
      '/api/identity/oidc-providers',
      { name: 'Y', issuer: 'http://sso.example.com', client_id: 'y' },
      adminHeaders,
    );
    expect(await insecure.json()).toMatchObject({
      code: 'InvalidParameterException',
      detail: 'The issuer must be an https:// URL.',
    });
    const detail = await (await server.get(`/api/identity/oidc-providers/${providerId}`, adminHeaders)).json();
    expect(detail).toMatchObject({
      name: 'Carrier SSO',
      has_client_secret: true,
      scopes: ['openid', 'email', 'profile', 'phone'],
    });
    expect(detail.client_secret).toBeUndefined();
    // The administrators' list has every provider, disabled ones too, and never a secret.
    const all = await server.get('/api/identity/oidc-providers/all', adminHeaders);
    expect((await all.json()).providers).toEqual([
      expect.objectContaining({ id: providerId, has_client_secret: true }),
    ]);
    expect(
      JSON.stringify(await (await server.get('/api/identity/oidc-providers/all', adminHeaders)).json()),
    ).not.toContain(idp.clientSecret);
    expect((await server.get('/api/identity/oidc-providers/all', adjuster)).status).toBe(403);
    expect(await (await server.get('/api/identity/oidc-providers')).json()).toEqual({
      providers: [{ id: providerId, name: 'Carrier SSO' }],
    });
  });

  it('sends the user to the provider with PKCE (S256), state, nonce and the openid email profile phone scopes', async () => {
    const { authorization_url, state } = await start('/api/identity/oidc/authorize');
    const url = new URL(authorization_url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('client_id')).toBe(idp.clientId);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('openid email profile phone');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/.{20,}/);
    expect(url.searchParams.get('state')).toBe(state);
  });

  it('refuses to sign in a provider account that is linked to nobody', async () => {
    idp.signInAs({ sub: 'stranger-1', email: 'stranger@carrier.example', email_verified: true });
    const { authorization_url } = await start('/api/identity/oidc/authorize');
    const callback = await idp.authorize(authorization_url);
    const response = await server.post('/api/identity/oidc/callback', callback);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'NotAuthorizedException',
      detail: 'There was an error attempting to log in',
      reason: 'not-linked',
    });
  });

  it('links a signed-in user to a provider account, which then signs in as that user', async () => {
    const adjuster = bearer((await server.tokensFor('adjuster@atrium.test')).access_token);
    idp.signInAs({ sub: 'casey-at-idp', email: 'casey@carrier.example', email_verified: true, name: 'Casey' });
    const link = await start('/api/identity/oidc/link/authorize', adjuster);
    const linkCallback = await idp.authorize(link.authorization_url);
    const linked = await server.post('/api/identity/oidc/link/callback', linkCallback, adjuster);
    expect(linked.status).toBe(200);
    expect(await linked.json()).toEqual({
      status: 'SUCCESS',
      message: 'Account linked successfully. Now you can login using linked account!',
    });

    const signIn = await start('/api/identity/oidc/authorize');
    const callback = await idp.authorize(signIn.authorization_url);
    expect(callback.code).toBeTruthy();
    const response = await server.post('/api/identity/oidc/callback', callback);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe('AUTHENTICATED');
    const session = await (
      await server.get('/api/identity/session', bearer(body.authentication_result.access_token))
    ).json();
    expect(session.username).toBe('adjuster@atrium.test');

    // The state works once.
    const replay = await server.post('/api/identity/oidc/callback', callback);
    expect(await replay.json()).toMatchObject({ code: 'NotAuthorizedException' });
  });

  it('does not let another user take over a linked provider account', async () => {
    const underwriter = bearer((await server.tokensFor('underwriter@atrium.test')).access_token);
    idp.signInAs({ sub: 'casey-at-idp', email: 'casey@carrier.example', email_verified: true });
    const link = await start('/api/identity/oidc/link/authorize', underwriter);
    const response = await server.post(
      '/api/identity/oidc/link/callback',
      await idp.authorize(link.authorization_url),
      underwriter,
    );
    expect(await response.json()).toMatchObject({ code: 'UsernameExistsException' });
  });

  it('refuses a state from another flow, another user, or that was never issued', async () => {
    const adjuster = bearer((await server.tokensFor('adjuster@atrium.test')).access_token);
    const author = bearer((await server.tokensFor('author@atrium.test')).access_token);
    idp.signInAs({ sub: 'casey-at-idp' });
    const link = await start('/api/identity/oidc/link/authorize', adjuster);
    const callback = await idp.authorize(link.authorization_url);
    expect(await (await server.post('/api/identity/oidc/callback', callback)).json()).toMatchObject({
      code: 'NotAuthorizedException',
    });

    const other = await start('/api/identity/oidc/link/authorize', adjuster);
    const otherCallback = await idp.authorize(other.authorization_url);
    expect(await (await server.post('/api/identity/oidc/link/callback', otherCallback, author)).json()).toMatchObject({
      code: 'InvalidParameterException',
      detail: 'Sorry, but we could not retrieve your info from social account to link',
    });

    const forged = await server.post('/api/identity/oidc/callback', { ...callback, state: 'forged-state' });
    expect(await forged.json()).toMatchObject({ code: 'NotAuthorizedException' });
  });

  it('answers a cancelled linking with the spec message', async () => {
    const adjuster = bearer((await server.tokensFor('adjuster@atrium.test')).access_token);
    idp.signInAs(null);
    const link = await start('/api/identity/oidc/link/authorize', adjuster);
    const callback = await idp.authorize(link.authorization_url);
    expect(callback.error).toBe('access_denied');
    const response = await server.post('/api/identity/oidc/link/callback', callback, adjuster);
    expect(await response.json()).toMatchObject({
      code: 'InvalidParameterException',
      detail: 'Sorry, but we could not retrieve your info from social account to link',
    });
  });

  it('with link_by_email, signs in the user whose username is the verified e-mail', async () => {
    await server.fetch(`/api/identity/oidc-providers/${providerId}`, {
      method: 'PATCH',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ link_by_email: true }),
    });
    idp.signInAs({ sub: 'unverified-1', email: 'author@atrium.test', email_verified: false });
    const unverified = await idp.authorize((await start('/api/identity/oidc/authorize')).authorization_url);
    expect((await (await server.post('/api/identity/oidc/callback', unverified)).json()).code).toBe(
      'NotAuthorizedException',
    );

    idp.signInAs({ sub: 'author-at-idp', email: 'Author@Atrium.test', email_verified: true });
    const verified = await idp.authorize((await start('/api/identity/oidc/authorize')).authorization_url);
    const body = await (await server.post('/api/identity/oidc/callback', verified)).json();
    expect(body.status).toBe('AUTHENTICATED');
    const session = await (
      await server.get('/api/identity/session', bearer(body.authentication_result.access_token))
    ).json();
    expect(session.username).toBe('author@atrium.test');
  });

  it('keeps the client secret sealed at rest, bound to its provider; older plaintext rows get sealed', async () => {
    const storedSecret = async () =>
      (
        await server.atrium.database.db
          .select({ secret: oidcProvider.clientSecret })
          .from(oidcProvider)
          .where(eq(oidcProvider.id, providerId))
      )[0]!.secret!;
    // Sealed on write (the sign-ins above opened it to authenticate at the provider's token endpoint).
    const sealed = await storedSecret();
    expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sealed).not.toContain(idp.clientSecret);
    // A row as it was before sealing: the hourly housekeeping seals it.
    await server.atrium.database.db
      .update(oidcProvider)
      .set({ clientSecret: idp.clientSecret })
      .where(eq(oidcProvider.id, providerId));
    server.clock.advanceSeconds(2 * 60 * 60);
    await server.signIn('adjuster@atrium.test');
    let secret = idp.clientSecret;
    for (let i = 0; i < 100 && !secret.startsWith(SEALED_PREFIX); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      secret = await storedSecret();
    }
    expect(secret.startsWith(SEALED_PREFIX)).toBe(true);
    expect(secret).not.toContain(idp.clientSecret);
  });
});
