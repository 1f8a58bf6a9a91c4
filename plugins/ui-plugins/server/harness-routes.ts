import { randomBytes } from 'node:crypto';
import { notFound, z, type AtriumRouter } from '@atrium/sdk/server';
import { PLUGIN_FILE_MAX_BYTES } from '../shared/plugin-schemas.js';
import { can } from './permissions.js';
import { rewriteLegacyLibrary } from './legacy-shim.js';
import { PLUGIN_CSP } from './plugin-file-routes.js';

/**
 * The dev harness's previews (docs/third-party-plugins.md "Dev harness"): an administrator posts a
 * plugin's HTML and gets a short-lived, unguessable URL that serves it exactly as a registered
 * plugin's file is served (sandbox CSP, the previous portal's library rewritten), so the harness can
 * mount work in progress in a real sandboxed slot without registering it. Previews live in this
 * process's memory for ten minutes (a harness is one developer's tab; nothing is stored).
 */
export const PREVIEW_TTL_MS = 10 * 60_000;
const MAX_PREVIEWS = 200;
const previews = new Map<string, { html: string; expires: number }>();

const sweep = (now: number) => {
  for (const [token, preview] of previews) if (preview.expires <= now) previews.delete(token);
};

export function harnessRoutes(router: AtriumRouter): void {
  router.post(
    '/plugins/previews',
    {
      config: { access: can('plugin', 'create') },
      schema: {
        summary: 'Stores a plugin page for the dev harness for ten minutes; answers the URL a sandboxed slot loads.',
        tags: ['ui-plugins'],
        security: [{ bearer: [] }],
        body: z.object({ content: z.string().min(1, 'This field is required.').max(PLUGIN_FILE_MAX_BYTES) }),
      },
    },
    async (request, reply) => {
      const now = Date.now();
      sweep(now);
      if (previews.size >= MAX_PREVIEWS) previews.delete(previews.keys().next().value!);
      const token = randomBytes(24).toString('base64url');
      previews.set(token, { html: request.body.content, expires: now + PREVIEW_TTL_MS });
      reply.status(201);
      return {
        src: `/api/integrations/plugins/previews/${token}/index.html`,
        expires_at: new Date(now + PREVIEW_TTL_MS).toISOString(),
      };
    },
  );

  router.get(
    '/plugins/previews/:token/index.html',
    {
      config: { access: 'public' },
      schema: {
        summary: 'A dev-harness preview, under the sandbox CSP (public like plugin files; the token is the secret).',
        tags: ['ui-plugins'],
        params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'Not a preview.') }),
      },
    },
    async (request, reply) => {
      const preview = previews.get(request.params.token);
      if (!preview || preview.expires <= Date.now())
        throw notFound('There is no such preview (they last ten minutes).');
      reply.header('content-security-policy', PLUGIN_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      reply.header('cross-origin-resource-policy', 'cross-origin');
      reply.header('content-type', 'text/html; charset=utf-8');
      return reply.send(rewriteLegacyLibrary(preview.html));
    },
  );
}
