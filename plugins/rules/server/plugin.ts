import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { LINES_ONTOLOGY } from '@atrium/plugin-lines/ontology-service';
import { registerArchetypeRoutes } from './archetype-routes.js';
import { registerBrlooRoutes } from './brloo-routes.js';
import { registerGraphqlRoutes } from './graphql-routes.js';
import { rulesPublishImpactService } from './impact.js';
import { registerImpactRoutes } from './impact-routes.js';
import { formInclusionService } from './form-inclusion.js';
import { registerFormInclusionRoutes } from './form-inclusion-routes.js';
import { registerFailedTestRoutes } from './failed-test-routes.js';
import { buildJob } from './jobs.js';
import { registerPackageRoutes } from './package-routes.js';
import { rulesPermissions } from './permissions.js';
import { registerRulesRoutes } from './routes.js';
import { rulesRuntimeService } from './runtime.js';
import { registerTransferRoutes } from './transfer-routes.js';
import { seedDemoRules } from './seed/seed-demo-rules.js';

/**
 * The rules module (docs/rules.md): rules projects per lines product, effective dates, packages and
 * components (BRL text and tree), build jobs (validate, test, commit, deploy), and the runtime that
 * quote calls — `POST /api/rules/execution/ui-controls/` and the RULES_RUNTIME service — and the
 * form inclusion documents asks (`POST /api/rules/execution/form-inclusion/`, FORM_INCLUSION_RULES).
 */
export default defineServerPlugin({
  id: 'rules',
  title: 'Rules',
  prefix: '/api',
  dbSchema: 'rules',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  deps: ['lines', LINES_ONTOLOGY],
  permissions: rulesPermissions,
  jobs: [buildJob],
  provides: { services: [rulesRuntimeService, rulesPublishImpactService, formInclusionService] },
  routes(router, context) {
    registerRulesRoutes(router, context);
    registerImpactRoutes(router, context);
    registerFailedTestRoutes(router, context);
    registerFormInclusionRoutes(router, context);
    registerTransferRoutes(router, context);
    registerPackageRoutes(router, context);
    registerArchetypeRoutes(router, context);
    registerBrlooRoutes(router, context);
    registerGraphqlRoutes(router, context);
  },
  seed: seedDemoRules,
});
