import type { ServerPluginContext, ServerPluginDefinition, ServiceMethods, ServiceRef } from '@atrium/sdk/server';
import { serviceProviders } from './plugin-order.js';

/**
 * `context.service(ref)`: the implementation of a service another plugin provides, built on first
 * use with the shared context (so providers may call one another) and kept for the server's life.
 */
export function serviceResolver(
  plugins: readonly ServerPluginDefinition[],
  context: () => ServerPluginContext,
): <T extends ServiceMethods>(ref: ServiceRef<T>) => T {
  const providers = serviceProviders(plugins);
  const built = new Map<string, unknown>();
  return <T extends ServiceMethods>(ref: ServiceRef<T>): T => {
    if (!built.has(ref.id)) {
      const provision = providers.get(ref.id)?.provides?.services?.find((p) => p.ref.id === ref.id);
      if (!provision) throw new Error(`No installed plugin provides the service '${ref.id}'.`);
      built.set(ref.id, provision.create(context()));
    }
    return built.get(ref.id) as T;
  };
}
