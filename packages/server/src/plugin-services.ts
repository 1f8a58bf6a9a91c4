import type { ServerPluginContext, ServerPluginDefinition, ServiceMethods, ServiceRef } from '@atrium/sdk/server';
import { serviceProviders } from './plugin-order.js';

/**
 * `context.service(ref)`: the implementation of a service another plugin provides, built on first
 * use with the shared context (so providers may call one another) and kept for the server's life.
 */
export function serviceResolver(
  plugins: readonly ServerPluginDefinition[],
  context: () => ServerPluginContext,
): {
  service<T extends ServiceMethods>(ref: ServiceRef<T>): T;
  optionalService<T extends ServiceMethods>(ref: ServiceRef<T>): T | null;
} {
  const providers = serviceProviders(plugins);
  const built = new Map<string, unknown>();
  const optionalService = <T extends ServiceMethods>(ref: ServiceRef<T>): T | null => {
    if (!built.has(ref.id)) {
      const provision = providers.get(ref.id)?.provides?.services?.find((p) => p.ref.id === ref.id);
      if (!provision) return null;
      built.set(ref.id, provision.create(context()));
    }
    return built.get(ref.id) as T;
  };
  return {
    optionalService,
    service: <T extends ServiceMethods>(ref: ServiceRef<T>): T => {
      const service = optionalService(ref);
      if (!service) throw new Error(`No installed plugin provides the service '${ref.id}'.`);
      return service;
    },
  };
}
