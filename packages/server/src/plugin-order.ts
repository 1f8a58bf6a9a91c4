import type { ServerPluginDefinition } from '@atrium/sdk/server';

/**
 * Orders plugins so that each comes after the plugins it depends on (migrations, seeds, routes).
 * An unknown dependency or a cycle stops the server at start with the plugin named.
 */
export function orderPlugins(plugins: ServerPluginDefinition[]): ServerPluginDefinition[] {
  const byId = new Map<string, ServerPluginDefinition>();
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) throw new Error(`Two server plugins share the id '${plugin.id}'.`);
    byId.set(plugin.id, plugin);
  }
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
      const target = byId.get(dep);
      if (!target) throw new Error(`Server plugin '${plugin.id}' depends on '${dep}', which is not installed.`);
      visit(target, [...chain, plugin.id]);
    }
    state.set(plugin.id, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
