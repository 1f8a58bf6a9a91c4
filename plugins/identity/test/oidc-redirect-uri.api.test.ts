import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';
import { startOpenIdProvider, TEST_REDIRECT_URI, type TestOpenIdProvider } from './openid-provider.js';

/**
 * An authorization may only name a redirect URI registered for its provider (issue 14, hole 6).
 * Otherwise anyone could start a sign-in that returns to their own site, send the authorization
 * URL to a colleague of the carrier, read the code the provider hands to that site and finish the
 * sign-in as the colleague at /oidc/callback.
 */
describe('OIDC redirect_uri allow-list per provider', () => {
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
    const body = await created.json();
    expect(body.redirect_uris).toEqual([idp.redirectUri]);
    providerId = body.id;
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  const authorize = (redirectUri: string, path = '/api/identity/oidc/authorize', headers = {}) =>
    server.post(path, { provider_id: providerId, redirect_uri: redirectUri }, headers);

  it('starts an authorization with the registered redirect URI', async () => {
    const response = await authorize(idp.redirectUri);
    expect(response.status).toBe(200);
    const url = new URL(((await response.json()) as { authorization_url: string }).authorization_url);
    expect(url.searchParams.get('redirect_uri')).toBe(idp.redirectUri);
  });

  it.each([
    'https://evil.example/login/idpresponse',
    `${TEST_REDIRECT_URI}/`,
    'http://127.0.0.1:5173/login/idpresponse?next=https://evil.example',
    'http://127.0.0.1:5174/login/idpresponse',
    'HTTP://127.0.0.1:5173/login/idpresponse',
  ])('refuses %s with 400 naming redirect_uri', async (redirectUri) => {
    for (const [path, headers] of [
      ['/api/identity/oidc/authorize', {}],
      ['/api/identity/oidc/link/authorize', adminHeaders],
    ] as const) {
      const response = await authorize(redirectUri, path, headers);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toMatchObject({ code: 'InvalidParameterException' });
      expect(body.detail).toContain('is not registered for this identity provider');
      expect(JSON.stringify(body)).toContain('/redirect_uri');
    }
  });

  it('refuses to register a redirect URI that is not an absolute https URL', async () => {
    for (const [uri, detail] of [
      ['javascript:alert(1)', 'A redirect URI must be an https:// URL (http:// only on localhost).'],
      [
        'http://sso-return.example/login/idpresponse',
        'A redirect URI must be an https:// URL (http:// only on localhost).',
      ],
      ['/login/idpresponse', 'A redirect URI must be an absolute URL.'],
      ['https://claims.example/login/idpresponse#x', 'A redirect URI must not have a fragment.'],
    ]) {
      const response = await server.fetch(`/api/identity/oidc-providers/${providerId}`, {
        method: 'PATCH',
        headers: { ...adminHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://claims.example/login/idpresponse', uri] }),
      });
      expect(response.status, uri).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'InvalidParameterException', detail });
    }
  });

  it('follows a change of the registered URIs', async () => {
    const changed = await server.fetch(`/api/identity/oidc-providers/${providerId}`, {
      method: 'PATCH',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://claims.example/login/idpresponse'] }),
    });
    expect(changed.status).toBe(200);
    expect((await authorize('https://claims.example/login/idpresponse')).status).toBe(200);
    expect((await authorize(idp.redirectUri)).status).toBe(400);
  });
});
