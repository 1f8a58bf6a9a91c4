import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerPluginDefinition } from '@atrium/sdk/server';
import corePlugin from './core/plugin.js';
import { REPO_ROOT } from './paths.js';

/**
 * First-party modules are folders under plugins/; a module with a server half has
 * `server/plugin.ts` whose default export is its `defineServerPlugin(...)`. Dropping a folder in is
 * all it takes to install one.
 */
export async function discoverServerPlugins(
  pluginsDir = path.join(REPO_ROOT, 'plugins'),
): Promise<ServerPluginDefinition[]> {
  const found: ServerPluginDefinition[] = [corePlugin];
  if (!existsSync(pluginsDir)) return found;
  for (const entry of readdirSync(pluginsDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const file = path.join(pluginsDir, entry.name, 'server', 'plugin.ts');
    if (!existsSync(file)) continue;
    const module = (await import(pathToFileURL(file).href)) as { default?: ServerPluginDefinition };
    if (!module.default?.id) throw new Error(`${file} must default-export defineServerPlugin(...).`);
    found.push(module.default);
  }
  return found;
}
