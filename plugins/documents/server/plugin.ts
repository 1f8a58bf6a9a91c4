import { fileURLToPath } from 'node:url';
import { defineServerPlugin, FORM_INCLUSION_RULES, provideService, registerResources } from '@atrium/sdk/server';
import { DOCUMENT_DECLARATIONS } from '../shared/services.js';
import { DOCUMENT_QUOTE_DOCUMENTS } from '../shared/quote-documents.js';
import { quoteDocumentsService } from './quote-documents/quote-documents-service.js';
import { registerCatalogueRoutes } from './catalogue/catalogue-routes.js';
import { declarationsService } from './declarations/declarations-service.js';
import { issuedListener } from './declarations/issued-listener.js';
import { registerSettingsRoutes } from './declarations/settings-routes.js';
import { documentsPermissions } from './permissions.js';
import { closePoolFor, poolFor } from './render/shared-pool.js';
import { folders, templates } from './resources.js';
import { registerFormRoutes } from './forms/form-routes.js';
import { registerLibraryRoutes } from './library/library-routes.js';
import { registerDocumentRoutes } from './routes.js';
import { registerDeliveryRoutes } from './delivery/delivery-routes.js';
import { seedDemoDocuments } from './seed/seed-demo-documents.js';

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
  // Declarations ask the rules module's form-inclusion rules when it is installed (else the settings).
  optionalDeps: [FORM_INCLUSION_RULES],
  // Policies asks for a revision's declarations through this service (docs/documents.md, "Declarations");
  // quote lists, makes and e-mails quote documents through the other ("Quote documents").
  provides: {
    services: [
      provideService(DOCUMENT_DECLARATIONS, declarationsService),
      provideService(DOCUMENT_QUOTE_DOCUMENTS, quoteDocumentsService),
    ],
  },
  routes(router, context) {
    const getPool = () => poolFor(context.db);
    router.addHook('onClose', async () => closePoolFor(context.db));
    registerResources(router, context, [folders, templates]);
    const reads = registerDocumentRoutes(router, context, getPool);
    registerDeliveryRoutes(router, context, reads);
    registerFormRoutes(router, context);
    registerSettingsRoutes(router, context);
    registerLibraryRoutes(router, context);
    registerCatalogueRoutes(router, context);
  },
  seed: seedDemoDocuments,
  // A policy issued gets its declarations at once (the policies.policy.issued outbox event).
  background: issuedListener,
});
