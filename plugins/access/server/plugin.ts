import { ACCESS_EVENTS } from './events.js';
import { fileURLToPath } from 'node:url';
import {
  defineServerPlugin,
  type Database,
  type ServerPluginContext,
  type ServerPluginDefinition,
} from '@atrium/sdk/server';
import { identityDirectory, type IdentityDirectory } from '@atrium/plugin-identity/directory';
import { createAccessEvaluator } from './access-evaluator.js';
import { AccessState, type AccessStateOptions } from './access-state.js';
import { seedDemoAccess } from './demo-access.js';
import { ACCESS_PERMISSION_DECLARATIONS } from './permissions.js';
import { createPermissionDefaultsInstaller } from './plugin-grants.js';
import { createRoleDirectory } from './role-directory.js';
import { assignmentRoutes } from './routes/assignment-routes.js';
import { directoryRoutes } from './routes/directory-routes.js';
import { evaluationRoutes } from './routes/evaluation-routes.js';
import { policyRoutes } from './routes/policy-routes.js';
import { roleRoutes } from './routes/role-routes.js';
import { transferRoutes } from './routes/transfer-routes.js';

export { createAccessEvaluator } from './access-evaluator.js';
export { AccessState } from './access-state.js';
export { PolicySet } from './statements/policy-set.js';
export { validateStatements } from './statements/statement-validator.js';

/**
 * The access module: roles, policies of statements, assignments, and the evaluator every protected
 * route of every module is checked by. It also owns role assignments and answers identity's
 * question "which roles does this user hold?" through the role directory.
 */
export type AccessPluginOptions = AccessStateOptions;

export function createAccessPlugin(options: AccessPluginOptions = {}): ServerPluginDefinition {
  // One state per database: the evaluator, the role directory and the routes share it, so that a
  // write through the API is seen by the very next evaluation.
  const states = new WeakMap<Database, AccessState>();
  const stateOf = (context: ServerPluginContext) => {
    let state = states.get(context.db);
    if (!state) states.set(context.db, (state = new AccessState(context.db, options)));
    return state;
  };
  return defineServerPlugin({
    id: 'access',
    title: 'Access management',
    dbSchema: 'access',
    migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
    permissions: ACCESS_PERMISSION_DECLARATIONS,
    // Every change to roles, policies and assignments, for a SIEM or an integration (events.ts).
    events: ACCESS_EVENTS,
    provides: {
      accessEvaluator: (context) => createAccessEvaluator(stateOf(context)),
      roleDirectory: (context) => createRoleDirectory(stateOf(context)),
      // Plugins' declared default grants become system policies at start (plugin-grants.ts).
      permissionDefaults: (context) => createPermissionDefaultsInstaller(context.db),
    },
    async routes(router, context) {
      const state = stateOf(context);
      const evaluator = createAccessEvaluator(state);
      policyRoutes(router, context.db, state);
      roleRoutes(router, context.db, state);
      // Identity is optional here (the access module's own tests run without it): look it up lazily.
      const directory = (): IdentityDirectory | null => {
        try {
          return context.service(identityDirectory);
        } catch {
          return null;
        }
      };
      assignmentRoutes(router, context.db, state, directory);
      directoryRoutes(router, context.db);
      evaluationRoutes(router, () => evaluator);
      await transferRoutes(router, context.db, state);
    },
    seed: seedDemoAccess,
  });
}

export default createAccessPlugin();
