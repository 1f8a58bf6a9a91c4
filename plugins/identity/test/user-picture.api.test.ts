import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

/** users/me/picture: upload, serve, revalidate, refuse, delete. */
let server: IdentityTestServer;
let adjuster: string;
let underwriter: string;

const UM = '/api/identity/user-management';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  server = await startIdentityServer();
  adjuster = (await server.tokensFor('adjuster@atrium.test')).access_token;
  underwriter = (await server.tokensFor('underwriter@atrium.test')).access_token;
});
afterAll(async () => server?.close());

const upload = (token: string, body: Buffer | string, contentType: string) =>
  server.fetch(`${UM}/users/me/picture`, {
    method: 'POST',
    headers: bearer(token, { 'content-type': contentType }),
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });

const sessionUser = async (token: string) =>
  (await (await server.get('/api/identity/session', bearer(token))).json()) as {
    id: string;
    picture: string | null;
    updated_at: string;
  };

describe('users/me/picture', () => {
  it('stores a PNG, sets the picture URL and serves the same bytes with an ETag; 304 on If-None-Match', async () => {
    const before = await sessionUser(adjuster);
    server.clock.advance(1000);
    const response = await upload(adjuster, PNG, 'image/png');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { picture: string; sha256: string };
    expect(body.picture).toMatch(new RegExp(`^${UM}/users/${before.id}/picture\\?v=[0-9a-f]{12}$`));

    const me = await sessionUser(adjuster);
    expect(me.picture).toBe(body.picture);
    expect(new Date(me.updated_at).getTime()).toBeGreaterThan(new Date(before.updated_at).getTime());
    const jsonApiMe = await server.get(`${UM}/users/me`, bearer(adjuster, { accept: 'application/vnd.api+json' }));
    expect((await jsonApiMe.json()).data.attributes.picture).toBe(body.picture);

    const served = await server.get(body.picture, bearer(adjuster, { accept: 'image/*' }));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('etag')).toBe(`"${body.sha256}"`);
    expect(served.headers.get('cache-control')).toContain('private');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const again = await server.get(body.picture, bearer(adjuster, { 'if-none-match': `"${body.sha256}"` }));
    expect(again.status).toBe(304);

    const asJson = await server.get(body.picture, bearer(adjuster, { accept: 'application/json' }));
    expect((await asJson.json()).data_url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('lets another user read it only when signed in', async () => {
    const { id, picture } = await sessionUser(adjuster);
    expect(picture).toBeTruthy();
    const other = await server.get(`${UM}/users/${id}/picture`, bearer(underwriter, { accept: 'image/*' }));
    expect(other.status).toBe(200);
    expect(Buffer.from(await other.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await server.get(`${UM}/users/${id}/picture`)).status).toBe(401);
  });

  it('refuses another content type (415), bytes that are not the image they claim (400) and more than 2 MB (413)', async () => {
    const gif = await upload(adjuster, Buffer.from('GIF89a'), 'image/gif');
    expect(gif.status).toBe(415);
    const text = await upload(adjuster, 'just some text', 'text/plain');
    expect(text.status).toBe(415);

    const spoofed = await upload(adjuster, Buffer.from('not a picture at all'), 'image/png');
    expect(spoofed.status).toBe(400);
    expect((await spoofed.json()).detail).toBe('The picture must be a PNG, JPEG or WebP image.');
    const pngAsJpeg = await upload(adjuster, PNG, 'image/jpeg');
    expect(pngAsJpeg.status).toBe(400);

    const large = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const tooLarge = await upload(adjuster, large, 'image/png');
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).detail).toBe('The picture must be 2 MB or smaller.');

    expect((await upload(adjuster, PNG, 'image/png')).status).toBe(200);
    expect((await server.fetch(`${UM}/users/me/picture`, { method: 'POST', body: new Uint8Array(PNG) })).status).toBe(
      401,
    );
  });

  it('removes the picture: the attribute is cleared and the URL answers 404', async () => {
    const { id } = await sessionUser(adjuster);
    const removed = await server.fetch(`${UM}/users/me/picture`, { method: 'DELETE', headers: bearer(adjuster) });
    expect(removed.status).toBe(204);
    expect((await sessionUser(adjuster)).picture).toBeNull();
    expect((await server.get(`${UM}/users/${id}/picture`, bearer(adjuster))).status).toBe(404);
  });
});
