import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

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

export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    // Set per request below: only over TLS.
    strictTransportSecurity: false,
    // Images and downloads are same-origin; cross-origin embedding is not a use case to break for.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate')) {
      reply.header('www-authenticate', 'Bearer realm="atrium"');
    }
    return payload;
  });
}
