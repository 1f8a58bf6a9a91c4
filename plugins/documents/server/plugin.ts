import { fileURLToPath } from 'node:url';
import { defineServerPlugin, registerResources } from '@atrium/sdk/server';
import { documentsPermissions } from './permissions.js';
import { RenderPool } from './render/pool.js';
import { folders, templates } from './resources.js';
import { registerFormRoutes } from './forms/form-routes.js';
import { registerDocumentRoutes } from './routes.js';
import { seedDemoDocuments } from './seed/seed-demo-documents.js';

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

/**
 * The Documents module's server half (docs/documents.md): folders and templates (declared
 * resources), versions, previews, production documents, data points and imported PDF forms. Rendering runs in a pool of
 * child processes created on the first render (ATRIUM_DOCUMENTS_RENDER_CHILDREN, _TIMEOUT_MS,
 * _MEMORY_MB), closed with the server.
 */
export default defineServerPlugin({
  id: 'documents',
  title: 'Documents',
  prefix: '/api',
  dbSchema: 'documents',
  // Absolute, so the server finds it whatever directory it runs from.
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: documentsPermissions,
  routes(router, context) {
    let pool: RenderPool | null = null;
    const getPool = () =>
      (pool ??= new RenderPool({
        size: positive(process.env.ATRIUM_DOCUMENTS_RENDER_CHILDREN, 2),
        timeoutMs: positive(process.env.ATRIUM_DOCUMENTS_RENDER_TIMEOUT_MS, 10_000),
        memoryMb: positive(process.env.ATRIUM_DOCUMENTS_RENDER_MEMORY_MB, 1024),
      }));
    router.addHook('onClose', async () => pool?.close());
    registerResources(router, context, [folders, templates]);
    registerDocumentRoutes(router, context, getPool);
    registerFormRoutes(router, context);
  },
  seed: seedDemoDocuments,
});
