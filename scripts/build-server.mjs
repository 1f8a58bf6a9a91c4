#!/usr/bin/env node
// Builds the server (packages/server, the SDK's server half, every plugin's server half) into one
// ESM bundle in dist/server, with source maps. Loading TypeScript through tsx at run time cost about
// five seconds per start; the bundle loads in a fraction of that. Packages from node_modules stay
// external, so native addons, PGlite's WebAssembly and OpenTelemetry's module hooks load from there
// as usual. Run directly (`node scripts/build-server.mjs`, part of `npm run build`) or through
// `scripts/start-server.mjs`, which rebuilds when a source is newer than the bundle.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIST = path.join(ROOT, 'dist', 'server');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'server.js');

/** Folders whose files go into the bundle; a newer file in any of them makes the bundle stale. */
function sourceRoots() {
  const roots = [
    path.join(ROOT, 'packages', 'server', 'src'),
    path.join(ROOT, 'packages', 'sdk', 'src', 'server'),
    path.join(ROOT, 'packages', 'sdk', 'src', 'shared'),
    path.join(ROOT, 'packages', 'rating', 'src'),
  ];
  const plugins = path.join(ROOT, 'plugins');
  for (const name of existsSync(plugins) ? readdirSync(plugins) : []) {
    roots.push(path.join(plugins, name, 'server'), path.join(plugins, name, 'shared'));
  }
  return roots;
}

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  // A folder's own mtime changes when a file in it is added, renamed or removed.
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.includes('.test.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function serverBuildIsStale() {
  if (!existsSync(SERVER_ENTRY)) return true;
  const built = statSync(SERVER_ENTRY).mtimeMs;
  const sources = Math.max(
    existsSync(path.join(ROOT, 'plugins')) ? statSync(path.join(ROOT, 'plugins')).mtimeMs : 0,
    ...sourceRoots().map(newestMtime),
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
  return sources > built;
}

/**
 * Sources use `import.meta.url` to find files beside them (migration folders, the repository root);
 * in a bundle every module would see the bundle's URL instead, so each keeps its own.
 */
const keepOwnUrl = {
  name: 'keep-own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?tsx?$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      let contents = readFileSync(args.path, 'utf8');
      if (args.path === path.join(ROOT, 'packages', 'server', 'src', 'installed-plugins.ts')) {
        contents = bundledPluginList();
      }
      contents = contents
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * At run time from sources, installed-plugins.ts imports every plugins/<name>/server/plugin.ts it
 * finds. A bundle cannot import TypeScript at run time, so the build writes that list out: the
 * plugins installed when it was built (adding or removing a plugin folder makes the bundle stale).
 */
function bundledPluginList() {
  const plugins = path.join(ROOT, 'plugins');
  const files = (existsSync(plugins) ? readdirSync(plugins).sort((a, b) => a.localeCompare(b)) : [])
    .map((name) => path.join(plugins, name, 'server', 'plugin.ts'))
    .filter((file) => existsSync(file));
  return [
    "import type { ServerPluginDefinition } from '@atrium/sdk/server';",
    "import corePlugin from './core/plugin.js';",
    ...files.map((file, index) => `import plugin${index} from ${JSON.stringify(file)};`),
    'export async function discoverServerPlugins(): Promise<ServerPluginDefinition[]> {',
    `  return [corePlugin, ${files.map((_, index) => `plugin${index}`).join(', ')}];`,
    '}',
  ].join('\n');
}

/**
 * Everything from node_modules stays external; the workspace's own packages are TypeScript and go in.
 * An external import is left as written (`ajv`) when Node, starting from the bundle in dist/, finds
 * the same copy the importing source file would. When the source's own package holds another
 * version (npm nests it: plugins/ui-plugins/node_modules/ajv is 8 while the root's, eslint's, is 6)
 * the bundle imports that copy by its absolute path, or it would load the wrong version.
 */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@atrium/') || path.isAbsolute(args.path)) return undefined;
      if (args.pluginData === 'external-packages') return undefined;
      const external = { path: args.path, external: true };
      if (args.path.startsWith('node:') || !args.resolveDir) return external;
      const options = { kind: args.kind, pluginData: 'external-packages' };
      const [own, fromRoot] = await Promise.all([
        build.resolve(args.path, { ...options, resolveDir: args.resolveDir }),
        build.resolve(args.path, { ...options, resolveDir: ROOT }),
      ]);
      if (own.errors.length > 0 || own.external || !own.path || own.path === fromRoot.path) return external;
      return { path: own.path, external: true };
    });
  },
};

/** esbuild's options for the server bundle, shared by `bundleEntry` (benchmarks). */
const BUNDLE_OPTIONS = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externalPackages, keepOwnUrl],
};

/**
 * Bundles another entry (a benchmark) exactly as the server is bundled, into `outdir`; returns the
 * bundle's path. A benchmark run through tsx measures a slower server than production runs: tsx
 * always compiles with esbuild's `keepNames`, which wraps every function it defines in a naming
 * helper (12 % of the UI-controls benchmark's CPU, 29 Nov); the server bundle has no such helper.
 */
export async function bundleEntry(entry, outdir) {
  const esbuild = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({ ...BUNDLE_OPTIONS, entryPoints: { bench: entry }, outdir });
  return path.join(outdir, 'bench.js');
}

export async function buildServer() {
  const esbuild = await import('esbuild');
  const started = performance.now();
  // Built beside and swapped in, so that a server starting meanwhile never loads half a build and
  // chunks of earlier builds do not pile up.
  const next = `${SERVER_DIST}.${process.pid}.next`;
  rmSync(next, { recursive: true, force: true });
  await esbuild.build({
    ...BUNDLE_OPTIONS,
    entryPoints: { server: path.join(ROOT, 'packages', 'server', 'src', 'main.ts') },
    outdir: next,
  });
  const previous = `${SERVER_DIST}.${process.pid}.previous`;
  if (existsSync(SERVER_DIST)) renameSync(SERVER_DIST, previous);
  renameSync(next, SERVER_DIST);
  rmSync(previous, { recursive: true, force: true });
  return Math.round(performance.now() - started);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ms = await buildServer();
  console.log(`server built into ${path.relative(ROOT, SERVER_DIST)} in ${ms} ms`);
  // The seeded snapshot new data directories start from is a build artifact too (`--no-snapshot`
  // skips it; `npm start` makes it when a fresh data directory needs it).
  if (!process.argv.includes('--no-snapshot')) {
    const snapshot = spawnSync(process.execPath, ['--enable-source-maps', SERVER_ENTRY, 'snapshot'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (snapshot.status !== 0) process.exit(snapshot.status ?? 1);
  }
}
