import path from 'node:path';
import type { Plugin } from 'vite';

/** The documented smallest plugin (docs/plugins.md): an example, not a module of the product. */
export const EXAMPLE_PLUGINS = ['hello'];

/** Set to `true` to build the examples in (`npm test` does, for the shell's end-to-end tests). */
export const EXAMPLE_PLUGINS_ENV = 'ATRIUM_EXAMPLE_PLUGINS';

/**
 * Leaves the example plugins out of production builds: their manifest (`plugins/<id>/web/plugin.ts`)
 * is built as an empty module, so nothing of theirs — page, command, quick search, the "Hello" link —
 * reaches the bundle, and packages/host/src/installed-plugins.ts skips it. `npm run dev` (no build)
 * and builds with ATRIUM_EXAMPLE_PLUGINS=true keep them.
 */
export function examplePlugins(options: { include?: boolean } = {}): Plugin {
  const include = options.include ?? process.env[EXAMPLE_PLUGINS_ENV] === 'true';
  const manifests = EXAMPLE_PLUGINS.map((id) => `${path.sep}plugins${path.sep}${id}${path.sep}web${path.sep}plugin.ts`);
  return {
    name: 'atrium:example-plugins',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (include) return null;
      const file = path.normalize(id.split('?')[0]!);
      return manifests.some((manifest) => file.endsWith(manifest))
        ? '// An example plugin, left out of this build (scripts/example-plugins-plugin.ts).\nexport default undefined;\n'
        : null;
    },
  };
}
