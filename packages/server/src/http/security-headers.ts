import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * Security headers on every answer (issue 14, hole 8), through @fastify/helmet:
 * - one Content-Security-Policy that every module works under (`CONTENT_SECURITY_POLICY`; a module
 *   that needs more says why in its issue): scripts only from this origin, WebAssembly allowed
 *   (the rating engine), workers from this origin or blob: (Monaco), inline styles (the UI
 *   library's runtime styles), no framing by other sites;
 * - X-Content-Type-Options: nosniff, Referrer-Policy: strict-origin-when-cross-origin,
 *   X-Frame-Options: DENY (for browsers that ignore frame-ancestors), Cross-Origin-Opener-Policy;
 * - Strict-Transport-Security only on requests that arrived over TLS (docs/operations.md): over
 *   plain HTTP the header is ignored by browsers, and on a development machine it would pin
 *   localhost to HTTPS for a year;
 * - `WWW-Authenticate: Bearer` on every 401 (RFC 6750), whichever route answered it.
 *
 * helmet writes the headers; it runs once, at start, and every answer then gets the headers it
 * wrote. (@fastify/helmet built a new helmet middleware for every request, re-parsing the CSP
 * directives: 11% of the server's CPU on a plain authenticated route, P1 in docs/operations.md.) No
 * route varies them per request, so one set serves all.
 */
export const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, values]) => `${name} ${values.join(' ')}`)
  .join('; ');

export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers helmet sets with Atrium's configuration, computed once. */
export function helmetHeaders(): [name: string, value: string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name.toLowerCase(), String(value)]);
    },
    removeHeader() {},
  };
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    // Set per request below: only over TLS.
    strictTransportSecurity: false,
    // Images and downloads are same-origin; cross-origin embedding is not a use case to break for.
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance) {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate')) {
      reply.header('www-authenticate', 'Bearer realm="atrium"');
    }
    return payload;
  });
}
