import { DEMO_PASSWORD } from './browser.js';

/**
 * A demo user's API on the e2e server (signed in with the demo password): e2e files set
 * up data and read results through it beside the browser. A status of 300 or more throws with the body.
 */
export async function apiAs(
  server: { fetch(path: string, init?: RequestInit): Promise<Response> },
  username: string,
): Promise<(method: string, path: string, body?: unknown) => Promise<Response>> {
  const signIn = await server.fetch('/api/identity/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
    .access_token;
  return async (method, path, body) => {
    const res = await server.fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
}
