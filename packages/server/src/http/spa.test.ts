import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncodings, registerSpa } from './spa.js';

describe('SPA assets', () => {
  const indexHtml = '<!doctype html><title>Atrium</title>';
  const source = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
  let webDist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'atrium-spa-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), indexHtml);
    writeFileSync(path.join(webDist, 'index.html.br'), brotliCompressSync(indexHtml));
    writeFileSync(path.join(webDist, 'index.html.gz'), gzipSync(indexHtml));
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), source);
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.br'), brotliCompressSync(source));
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.gz'), gzipSync(source));
    writeFileSync(path.join(webDist, 'assets', 'plain-def456.js'), 'console.log(1);');
    app = Fastify();
    await registerSpa(app, webDist);
    app.setNotFoundHandler(async (request, reply) => reply.code(200).send(`fallback for ${request.url}`));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends the brotli copy built beside an asset to a browser that accepts it, cached for good', async () => {
    const response = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length).toBeLessThan(source.length / 10);
  });

  it('sends gzip when brotli is not accepted, and the file itself when neither is', async () => {
    const gzipped = await get('/assets/app-abc123.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload.length).toBeLessThan(source.length / 10);

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(source);
  });

  it('sends an asset without compressed copies as it is', async () => {
    const response = await get('/assets/plain-def456.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('console.log(1);');
  });

  it('sends index.html as its brotli or gzip copy when accepted, never cached', async () => {
    const br = await get('/', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(indexHtml);

    const gzipped = await get('/', 'br;q=0, gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(indexHtml);

    const plain = await get('/', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(indexHtml);
  });

  it('reads Accept-Encoding with its q values', () => {
    expect([...acceptedEncodings('gzip, deflate, br')]).toEqual(['gzip', 'deflate', 'br']);
    expect([...acceptedEncodings('br;q=0, gzip;q=0.5')]).toEqual(['gzip']);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
  });

  it('hands a path that names no file to the app (the history fallback), and serves no file outside the build', async () => {
    expect((await get('/')).body).toBe(indexHtml);
    for (const url of ['/claims/40/exposures', '/assets/missing-000.js']) {
      const response = await get(url);
      expect(response.body).toBe(`fallback for ${url}`);
    }
    const outside = await get('/..%2F..%2Fetc%2Fpasswd');
    expect(outside.body).not.toContain('root:');
  });
});
