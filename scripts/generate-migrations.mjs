#!/usr/bin/env node
// Generates SQL migrations with drizzle-kit for the core and for every plugin that has
// server/tables.ts. Run after changing a tables.ts; commit the generated files.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const targets = [{ id: 'core', schema: 'packages/server/src/core/tables.ts', out: 'packages/server/migrations' }];
for (const entry of readdirSync(path.join(root, 'plugins'), { withFileTypes: true })) {
  const tables = path.join('plugins', entry.name, 'server', 'tables.ts');
  if (entry.isDirectory() && existsSync(path.join(root, tables))) {
    targets.push({ id: entry.name, schema: tables, out: path.join('plugins', entry.name, 'server', 'migrations') });
  }
}
const only = process.argv[2];
for (const target of targets) {
  if (only && target.id !== only) continue;
  console.log(`→ ${target.id}`);
  const result = spawnSync(
    'npx',
    ['drizzle-kit', 'generate', '--dialect=postgresql', `--schema=${target.schema}`, `--out=${target.out}`],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
