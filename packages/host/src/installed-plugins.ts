import type { PluginManifest } from '@atrium/sdk';

/**
 * First-party modules are built into the app: every `plugins/<id>/web/plugin.ts` default-exports
 * its `definePlugin(...)` manifest. The manifests are small (pages load lazily through their
 * `loader`), so they are imported eagerly and the shell can build navigation, the palette and the
 * shortcut map at start. A production build stubs the example plugins' manifests out (an empty
 * default export; scripts/example-plugins-plugin.ts): those are not installed.
 */
const modules = import.meta.glob<{ default?: unknown }>('../../../plugins/*/web/plugin.ts', { eager: true });

function isPluginManifest(value: unknown): value is PluginManifest {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'plugin-manifest';
}

export function installedPluginManifests(): PluginManifest[] {
  return (
    Object.entries(modules)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) // ASCII paths: localeCompare's first call loads ICU's collator
      // `export default undefined`: an example plugin stubbed out of this build.
      .filter(([, module]) => !('default' in module && module.default === undefined))
      .map(([file, module]) => {
        if (!isPluginManifest(module.default)) throw new Error(`${file} must default-export definePlugin(...).`);
        return module.default;
      })
  );
}
