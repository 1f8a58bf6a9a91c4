import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

/**
 * `npm start` builds what is not built yet: the SPA when dist/web is missing or older than any web
 * source (host, sdk, plugins' web halves).
 */
function newestMtime(dir: string, skip: (name: string) => boolean): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full, skip) : statSync(full).mtimeMs);
  }
  return newest;
}

export function webBuildIsStale(webDist: string): boolean {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const skip = (name: string) => name === 'node_modules' || name === 'dist' || name === 'server' || name === 'test';
  const sources = Math.max(
    newestMtime(path.join(REPO_ROOT, 'packages', 'host'), skip),
    newestMtime(path.join(REPO_ROOT, 'packages', 'sdk', 'src', 'web'), skip),
    newestMtime(path.join(REPO_ROOT, 'plugins'), skip),
  );
  return sources > built;
}

export function buildWeb(): void {
  const result = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('Building the web app failed (vite build).');
}
