#!/usr/bin/env node
// `npm run dev`: the API (restarted on change by tsx watch) and Vite with hot reload, together.
// Open the Vite URL it prints (http://localhost:5173); /api is proxied to the API process.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.ATRIUM_API_PORT ?? '8080';
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'packages/server/src/cli.ts', 'start', '--no-build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, WEB_DIST: path.join(root, 'dist', 'web-dev-none') },
  }),
  spawn(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ATRIUM_API_PORT: apiPort },
  }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  });
