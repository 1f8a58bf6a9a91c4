#!/usr/bin/env node
// Runs every benchmark in tests/bench/ (and plugins/*/bench/) one after another; each prints its
// own figures. `npm run bench -- p8` runs only the files whose name contains "p8".
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const filter = process.argv[2];
const dirs = [path.join(root, 'tests', 'bench')];
for (const entry of readdirSync(path.join(root, 'plugins'), { withFileTypes: true })) {
  const dir = path.join(root, 'plugins', entry.name, 'bench');
  if (entry.isDirectory() && existsSync(dir)) dirs.push(dir);
}
const files = dirs
  .flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => path.join(dir, f)),
  )
  .filter((file) => !filter || path.basename(file).includes(filter));
/**
 * A file whose header says `@bench-bundled` runs as esbuild bundles the server for production
 * (scripts/build-server.mjs), not through tsx: its figures are then the production server's.
 */
const BUNDLED = '@bench-bundled';
let failed = false;
for (const file of files) {
  console.log(`\n=== ${path.relative(root, file)}`);
  let args = ['--import', 'tsx', file];
  if (readFileSync(file, 'utf8').slice(0, 4000).includes(BUNDLED)) {
    const outdir = path.join(root, 'node_modules', '.cache', 'atrium', 'bench', path.basename(file, '.ts'));
    const { bundleEntry } = await import('./build-server.mjs');
    const bundle = await bundleEntry(file, outdir);
    (await import('esbuild')).stop();
    console.log(`(bundled as the server is for production: ${path.relative(root, bundle)})`);
    args = ['--enable-source-maps', bundle];
  }
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
