import type { ServerPluginContext, ServerPluginDefinition } from '@atrium/sdk/server';

/**
 * Hands the installed plugins' default grants to the plugin that keeps policies (access), once per
 * start (after seeding). Without such a plugin there is nothing to grant to: every protected route stays refused.
 */
export async function applyPermissionDefaults(
  plugins: readonly ServerPluginDefinition[],
  context: ServerPluginContext,
): Promise<void> {
  const keepers = plugins.filter((plugin) => plugin.provides?.permissionDefaults);
  if (keepers.length > 1) {
    throw new Error(`Several plugins keep permission defaults: ${keepers.map((p) => p.id).join(', ')}.`);
  }
  const keeper = keepers[0]?.provides?.permissionDefaults;
  // Called even when no plugin declares defaults: the keeper also brings its own system policies
  // up to this build's version.
  if (!keeper) return;
  await keeper(context).apply(plugins);
}
