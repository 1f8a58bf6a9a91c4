import { SDK_API_VERSION } from './api-version.js';
import type { PluginManifest, PluginManifestInput, PluginRoute } from './plugin-manifest.js';
import { validateManifest, PluginValidationError } from './manifest-validation.js';

/**
 * Declares a web plugin. Validates the manifest on its own (layouts, duplicate ids inside it) so a
 * plugin's mistakes fail in its own tests; cross-plugin checks happen in the registry.
 */
export function definePlugin(input: PluginManifestInput): PluginManifest {
  const manifest: PluginManifest = Object.freeze({
    kind: 'plugin-manifest' as const,
    apiVersion: SDK_API_VERSION,
    id: input.id,
    title: input.title,
    moduleKey: input.moduleKey,
    routes: input.routes ?? [],
    nav: input.nav ?? [],
    commands: input.commands ?? [],
    shortcuts: input.shortcuts ?? [],
    quickSearch: input.quickSearch ?? [],
    palette: input.palette ?? [],
    activityPanels: input.activityPanels ?? [],
    slots: input.slots ?? [],
    myWork: input.myWork ?? [],
  });
  const problems = validateManifest(manifest);
  // A shortcut to one of the plugin's own commands (`<id>.…`) must name one it defines; commands of
  // the shell or other plugins are checked when the host registers the binding.
  const own = new Set(manifest.commands.map((command) => command.id));
  for (const shortcut of manifest.shortcuts) {
    if (shortcut.command.startsWith(`${manifest.id}.`) && !own.has(shortcut.command)) {
      problems.push(`shortcut '${shortcut.key}' binds '${shortcut.command}', which this plugin does not define`);
    }
  }
  if (problems.length > 0) throw new PluginValidationError(manifest.id, problems);
  return manifest;
}

/** Pairs a route ref with its page, so the path and name are written once. */
export function defineRoute(
  ref: { name: string; path: string },
  route: Omit<PluginRoute, 'name' | 'path'>,
): PluginRoute {
  return { name: ref.name, path: ref.path, ...route };
}
