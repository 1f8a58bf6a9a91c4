import { declareEvents, type ServerPluginDefinition } from '@atrium/sdk/server';

/**
 * Orders plugins so that each comes after the plugins it depends on (migrations, seeds, routes): a
 * dependency is a plugin id or a service ref, which stands for the plugin providing it. An unknown
 * dependency, a service no installed plugin provides (or two provide) or a cycle stops the server at
 * start with the plugin named. Optional dependencies order the same way when installed and are
 * skipped when not.
 */
export function orderPlugins(plugins: ServerPluginDefinition[]): ServerPluginDefinition[] {
  const byId = new Map<string, ServerPluginDefinition>();
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) throw new Error(`Two server plugins share the id '${plugin.id}'.`);
    byId.set(plugin.id, plugin);
  }
  const providers = serviceProviders(plugins);
  const ordered: ServerPluginDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: ServerPluginDefinition, chain: string[]) => {
    const mark = state.get(plugin.id);
    if (mark === 'done') return;
    if (mark === 'visiting') {
      throw new Error(`Server plugins depend on each other in a cycle: ${[...chain, plugin.id].join(' → ')}`);
    }
    state.set(plugin.id, 'visiting');
    for (const dep of plugin.deps ?? []) {
      if (typeof dep !== 'string') {
        const provider = providers.get(dep.id);
        if (!provider) {
          throw new Error(
            `Server plugin '${plugin.id}' needs the service '${dep.id}', which no installed plugin provides.`,
          );
        }
        if (provider !== plugin) visit(provider, [...chain, plugin.id]);
        continue;
      }
      const target = byId.get(dep);
      if (!target) throw new Error(`Server plugin '${plugin.id}' depends on '${dep}', which is not installed.`);
      visit(target, [...chain, plugin.id]);
    }
    for (const dep of plugin.optionalDeps ?? []) {
      const target = typeof dep === 'string' ? byId.get(dep) : providers.get(dep.id);
      if (target && target !== plugin) visit(target, [...chain, plugin.id]);
    }
    state.set(plugin.id, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

/** Which plugin provides each service id; two providers of one id stop the start. */
export function serviceProviders(plugins: readonly ServerPluginDefinition[]): Map<string, ServerPluginDefinition> {
  const providers = new Map<string, ServerPluginDefinition>();
  for (const plugin of plugins) {
    for (const provision of plugin.provides?.services ?? []) {
      const other = providers.get(provision.ref.id);
      if (other) {
        throw new Error(`The service '${provision.ref.id}' is provided by both '${other.id}' and '${plugin.id}'.`);
      }
      providers.set(provision.ref.id, plugin);
    }
  }
  return providers;
}

/**
 * Everything checked about the installed plugins before the database is touched: their order and
 * services (above), and their events, which join the topic catalogue `emitEvent` checks against.
 */
export function preparePlugins(plugins: ServerPluginDefinition[]): ServerPluginDefinition[] {
  const ordered = orderPlugins(plugins);
  declareEvents(ordered);
  return ordered;
}
