import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('identity routes in the OpenAPI document', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists every route with its access declaration and schemas', async () => {
    const document = await (await server.get('/api/docs/json')).json();
    const paths = Object.keys(document.paths);
    for (const path of [
      '/api/identity/sign-in',
      '/api/identity/challenges/mfa',
      '/api/identity/challenges/mfa/resend',
      '/api/identity/challenges/new-password',
      '/api/identity/forgot-password',
      '/api/identity/forgot-password/confirm',
      '/api/identity/password',
      '/api/identity/tokens/refresh',
      '/api/identity/sign-out',
      '/api/identity/global-sign-out',
      '/api/identity/session',
      '/api/identity/mfa-preference',
      '/api/identity/software-token/associate',
      '/api/identity/software-token/verify',
      '/api/identity/settings/password-policy',
      '/api/identity/settings/mfa-settings',
      '/api/identity/.well-known/jwks.json',
      '/api/v2/contacts/retrieve_all_roles',
      '/api/access/role-select',
    ]) {
      expect(paths, path).toContain(path);
    }
    const signIn = document.paths['/api/identity/sign-in'].post;
    expect(signIn['x-atrium-access']).toBe('public');
    expect(signIn.requestBody.content['application/json'].schema.required).toEqual(['username', 'password']);
    expect(document.paths['/api/identity/settings/mfa-settings'].put['x-atrium-access']).toEqual({
      resource: 'identity:settings',
      action: 'update',
    });
  });
});
