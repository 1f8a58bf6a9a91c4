import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { markScopePublic } from './access-control.js';

/**
 * Serves the built SPA from `dist/web`: hashed assets with long, immutable caching (a new build
 * gives changed files new names), as brotli or gzip when the browser accepts it — the build writes
 * `.br`/`.gz` beside each text asset (scripts/precompress-plugin.ts), so nothing is compressed per
 * request — and index.html for every other GET that is not an API path (history fallback for
 * client routes).
 */
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<{ served: boolean }> {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return { served: false };
  const indexHtml = await readFile(indexFile);
  await app.register(async (scope) => {
    markScopePublic(scope);
    // `/` names the build's directory, which the file route refuses (403): it is the app's page.
    scope.get('/', async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml),
    );
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
  app.decorate('spaIndexHtml', indexHtml);
  return { served: true };
}
