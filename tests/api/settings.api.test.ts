import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

describe('POST /api/v2/settings/set_setting_value', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    server.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const signIn = async (username: string, role: string) => {
    const response = await post('/api/identity/sign-in', { username, password: 'Atrium!demo1' });
    const body = await response.json();
    if (body.status !== 'AUTHENTICATED') throw new Error(`Sign-in of ${username}: ${JSON.stringify(body)}`);
    return { authorization: `Bearer ${body.authentication_result.access_token}`, 'x-effective-role': role };
  };
  const set = (body: unknown, headers: Record<string, string>) =>
    post('/api/v2/settings/set_setting_value', body, headers);
  const pointers = async (response: Response) =>
    ((await response.json()) as { errors: { pointer?: string }[] }).errors.map((e) => e.pointer);

  it('lets an administrator change the session timeout, which get_setting_value then answers', async () => {
    const admin = await signIn('admin@atrium.test', 'Administrator');
    const saved = await set({ section: 'login', option: 'session-timeout', value: 30 }, admin);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ success: true, data: 30 });
    const read = await post(
      '/api/v2/settings/get_setting_value',
      { section: 'login', option: 'session-timeout' },
      admin,
    );
    expect(await read.json()).toEqual({ success: true, data: 30 });
    expect((await set({ section: 'login', option: 'session-timeout', value: 0 }, admin)).status).toBe(200);
  });

  it('refuses values out of bounds, unknown fields, unknown and read-only settings', async () => {
    const admin = await signIn('admin@atrium.test', 'Administrator');
    for (const value of [-1, 1441, 12.5, '30', null]) {
      const bad = await set({ section: 'login', option: 'session-timeout', value }, admin);
      expect(bad.status).toBe(400);
      expect(await pointers(bad)).toEqual(['/value']);
    }
    const extra = await set({ section: 'login', option: 'session-timeout', value: 30, other: 1 }, admin);
    expect(extra.status).toBe(400);
    const readOnly = await set({ section: 'site', option: 'help-url', value: 'https://x.test' }, admin);
    expect(readOnly.status).toBe(400);
    expect(await pointers(readOnly)).toEqual(['/option']);
    expect((await set({ section: 'login', option: 'nope', value: 1 }, admin)).status).toBe(404);
    expect((await set({ section: 'nope', option: 'session-timeout', value: 1 }, admin)).status).toBe(404);
  });

  it('refuses an adjuster with 403', async () => {
    const adjuster = await signIn('adjuster@atrium.test', 'Claims Adjuster');
    const refused = await set({ section: 'login', option: 'session-timeout', value: 60 }, adjuster);
    expect(refused.status).toBe(403);
  });
});
