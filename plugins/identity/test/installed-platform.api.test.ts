import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/** Identity with every installed module (access among them), as `npm start` runs it. */
describe('identity on the installed platform', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    server.fetch(path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const tokenFor = async (username: string) => {
    const response = await json('POST', '/api/identity/sign-in', { username, password: 'Atrium!demo1' });
    return ((await response.json()) as { authentication_result: { access_token: string } }).authentication_result
      .access_token;
  };

  it('lets an Administrator change the MFA setting and refuses other roles', async () => {
    const admin = await tokenFor('admin@atrium.test');
    const allowed = await json(
      'PUT',
      '/api/identity/settings/mfa-settings',
      { mfa_configuration: 'optional' },
      { authorization: `Bearer ${admin}` },
    );
    expect(allowed.status).toBe(200);
    const adjuster = await tokenFor('adjuster@atrium.test');
    const refused = await json(
      'PUT',
      '/api/identity/settings/mfa-settings',
      { mfa_configuration: 'off' },
      { authorization: `Bearer ${adjuster}` },
    );
    expect(refused.status).toBe(403);
  });

  it('sends a user with several roles and none chosen to role select (ingress denied)', async () => {
    const multi = await tokenFor('multi@atrium.test');
    const roles = await json(
      'POST',
      '/api/v2/contacts/retrieve_all_roles',
      { login_only: true },
      { authorization: `Bearer ${multi}` },
    );
    expect(await roles.json()).toEqual({ success: true, data: [{ name: 'Claims Adjuster' }, { name: 'Underwriter' }] });
    const denied = await json(
      'PUT',
      '/api/identity/settings/mfa-settings',
      { mfa_configuration: 'off' },
      { authorization: `Bearer ${multi}` },
    );
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ ingress_denied: true, annotation: 'no-effective-role' });
    const selected = await json(
      'POST',
      '/api/access/role-select',
      { effective_role: 'Underwriter' },
      { authorization: `Bearer ${multi}` },
    );
    expect(selected.status).toBe(200);
  });
});
