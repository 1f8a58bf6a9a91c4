import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { markScopePublic } from './access-control.js';

/**
 * Serves the built SPA from `dist/web`: hashed assets with long, immutable caching (a new build
 * gives changed files new names), as brotli or gzip when the browser accepts it — the build writes
 * `.br`/`.gz` beside each text asset (scripts/precompress-plugin.ts), so nothing is compressed per
 * request — and index.html for every other GET that is not an API path (history fallback for
 * client routes), itself sent as its brotli or gzip copy when the browser takes one.
 */
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<{ served: boolean }> {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return { served: false };
  const sendIndex = await indexSender(indexFile);
  await app.register(async (scope) => {
    markScopePublic(scope);
    // `/` names the build's directory, which the file route refuses (403): it is the app's page.
    scope.get('/', async (request, reply) => sendIndex(request, reply));
    await scope.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      // One `/*` route that looks each file up when asked, and hands a miss to the app's not-found
      // handler (the history fallback below, or a 404 for /api paths). `wildcard: false` globbed
      // dist/web at start and registered a route per file and method (2,000 routes for 1,048 files,
      // with their .br, .gz and .map copies): a large part of the start-up time (P8).
      wildcard: true,
      index: false,
      // Picks `<file>.br` or `<file>.gz` by Accept-Encoding (and sets Vary); the file itself otherwise.
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  });
  app.decorate('sendSpaIndex', sendIndex);
  return { served: true };
}

export type SpaIndexSender = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/** The encodings a request's Accept-Encoding allows (a `;q=0` entry refuses one). */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  return accepted;
}

/**
 * index.html and the copies the build wrote beside it, read once: every page load asks for it
 * (it is never cached, so a new build is picked up), so it goes out as brotli or gzip like the assets.
 */
async function indexSender(indexFile: string): Promise<SpaIndexSender> {
  const html = await readFile(indexFile);
  const copies: { encoding: string; body: Buffer }[] = [];
  for (const [encoding, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (existsSync(indexFile + suffix)) copies.push({ encoding, body: await readFile(indexFile + suffix) });
  }
  return (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (copies.length === 0) return reply.send(html);
    reply.header('vary', 'Accept-Encoding');
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    const copy = copies.find(({ encoding }) => accepted.has(encoding));
    return copy ? reply.header('content-encoding', copy.encoding).send(copy.body) : reply.send(html);
  };
}
