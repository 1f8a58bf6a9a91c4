import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { text as readText } from 'node:stream/consumers';
import { and, eq } from 'drizzle-orm';
import { notFound, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { pluginFilePath } from '../shared/plugin-schemas.js';
import { rewriteLegacyLibrary } from './legacy-shim.js';
import { plugin, pluginFile } from './tables.js';

/**
 * The sandbox policy every plugin document is served under (a response header, so a plugin cannot
 * loosen it with a meta tag): scripts and styles only from Atrium itself (the plugin's own uploaded
 * files) or inline, no network access of its own (`connect-src 'none'`: API calls go through the
 * host's bridge), no forms, no plugins, no `<base>`, embeddable only by Atrium, and the CSP `sandbox`
 * directive so that even a plugin file opened directly runs on an opaque origin.
 */
export const PLUGIN_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts',
].join('; ');

/** The file an inline-content plugin is served as. */
export const INLINE_CONTENT_PATH = 'index.html';

const params = z.object({ id: z.uuid({ error: 'Not a plugin id.' }), '*': pluginFilePath });

/**
 * `GET /api/integrations/plugins/{id}/files/{path}`: an enabled plugin's code, for the sandboxed
 * iframe. Public on purpose: an iframe's `src` cannot carry the user's bearer token (and must not),
 * the code is delivered to every user's browser anyway, and only enabled plugins are served, by
 * unguessable id. Everything a plugin may *do* goes through the bridge with the user's permissions.
 */
export function pluginFileRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db, storage } = context;
  // The bridge client plugins load (packages/plugin-client), same policy as their own files.
  const resolve = createRequire(import.meta.url).resolve;
  const client = readFileSync(resolve('@atrium/plugin-client'), 'utf8');
  // The previous portal's library: the client plus the BriteCorePlugin compatibility layer.
  const scripts: Record<string, string> = {
    'plugin-client.js': client,
    'britecore-ui-plugins.js': `${client}\n${readFileSync(resolve('@atrium/plugin-client/britecore-compat'), 'utf8')}`,
  };
  router.get(
    '/plugins/sdk/:script',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The scripts sandboxed plugins load: @atrium/plugin-client, and the previous portal’s library shim.',
        tags: ['ui-plugins'],
        params: z.object({ script: z.enum(['plugin-client.js', 'britecore-ui-plugins.js']) }),
      },
    },
    async (request, reply) => {
      const body = scripts[request.params.script]!;
      reply.header('content-security-policy', PLUGIN_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-cache');
      reply.header('cross-origin-resource-policy', 'cross-origin');
      reply.header('content-type', 'text/javascript; charset=utf-8');
      return reply.send(body);
    },
  );
  router.get(
    '/plugins/:id/files/*',
    {
      config: { access: 'public' },
      schema: {
        summary: "One of an enabled plugin's files (inline content as index.html), under the sandbox CSP.",
        tags: ['ui-plugins'],
        params,
      },
    },
    async (request, reply) => {
      const { id, '*': path } = request.params;
      const [row] = await db
        .select()
        .from(plugin)
        .where(and(eq(plugin.id, id), eq(plugin.enabled, true)));
      if (!row) throw notFound('There is no such enabled plugin.');
      reply.header('content-security-policy', PLUGIN_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-cache');
      reply.header('referrer-policy', 'no-referrer');
      // The sandboxed document is on an opaque origin, so its own scripts and styles load cross-origin;
      // the server's default `same-origin` resource policy would block them.
      reply.header('cross-origin-resource-policy', 'cross-origin');
      if (row.content !== null) {
        if (path !== INLINE_CONTENT_PATH) throw notFound(`The plugin has no file ${path}.`);
        reply.header('content-type', 'text/html; charset=utf-8');
        return reply.send(rewriteLegacyLibrary(row.content));
      }
      const [file] = await db
        .select()
        .from(pluginFile)
        .where(and(eq(pluginFile.pluginId, id), eq(pluginFile.path, path)));
      const stored = file && (await storage.get(file.storageKey));
      if (!stored) throw notFound(`The plugin has no file ${path}.`);
      const text = file.contentType.startsWith('text/') || file.contentType === 'application/json';
      reply.header('content-type', text ? `${file.contentType}; charset=utf-8` : file.contentType);
      if (file.contentType === 'text/html') return reply.send(rewriteLegacyLibrary(await readText(stored.body)));
      return reply.send(stored.body);
    },
  );
}
