import { fileURLToPath } from 'node:url';
import { defineServerPlugin, type ServerPluginContext } from '@atrium/sdk/server';
import { Dispatcher } from './delivery/dispatcher.js';
import { deliverySettings } from './delivery/settings.js';
import { eventRoutes } from './event-routes.js';
import { INTEGRATIONS_EVENTS } from './events.js';
import { exceptionRoutes } from './exception-routes.js';
import { exceptionsQueue, exceptionsQueueProvision } from './exceptions-service.js';
import { integrationRoutes } from './integration/integration-routes.js';
import { IntegrationRunner } from './integration/runner.js';
import { mappingRoutes } from './mapping/mapping-routes.js';
import { integrationsPermissions } from './permissions.js';
import { subscriptionRoutes } from './subscription-routes.js';

/**
 * The Integrations module's server half (docs/integrations.md): the events browser over the core's
 * outbox, webhook subscriptions delivered by the dispatcher (Standard Webhooks), their message log,
 * the one exceptions queue other modules report into (`EXCEPTIONS_QUEUE`), and versioned JSONata data
 * mappings. Paths are the spec's
 * (`/api/events/…`, `/api/datamapping/…`) and this module's own (`/api/integrations/…`), hence the `/api` prefix.
 */
export default defineServerPlugin({
  id: 'integrations',
  title: 'Integrations',
  prefix: '/api',
  dbSchema: 'integrations',
  // Absolute, so the server finds it whatever directory it runs from.
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: integrationsPermissions,
  events: INTEGRATIONS_EVENTS,
  provides: { services: [exceptionsQueueProvision] },
  routes(router, context) {
    const dispatcher = dispatcherOf(context);
    eventRoutes(router, context);
    subscriptionRoutes(router, context, dispatcher.settings, dispatcher);
    const runner = new IntegrationRunner(context, dispatcher.settings, () => exceptionsQueue);
    exceptionRoutes(router, context, dispatcher, runner);
    mappingRoutes(router, context);
    integrationRoutes(router, context, runner, dispatcher);
  },
  // Delivery runs where jobs are worked: `atrium start` (unless ATRIUM_WORKERS=false) and every
  // `atrium worker`. It resumes from the database at every start.
  background(context) {
    const dispatcher = dispatcherOf(context);
    dispatcher.start();
    return { stop: () => dispatcher.stop() };
  },
});

/**
 * One dispatcher per server (a test process may run several), keyed by its database (the routes get
 * a copy of the context with the HTTP logger): the routes kick it, `background` runs it.
 */
const dispatchers = new WeakMap<object, Dispatcher>();
function dispatcherOf(context: ServerPluginContext): Dispatcher {
  let dispatcher = dispatchers.get(context.db);
  if (!dispatcher) {
    const settings = deliverySettings();
    const runner = new IntegrationRunner(context, settings, () => exceptionsQueue);
    dispatcher = new Dispatcher(context, settings, () => exceptionsQueue, runner);
    dispatchers.set(context.db, dispatcher);
  }
  return dispatcher;
}
