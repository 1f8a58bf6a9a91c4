/**
 * P8 cold start: seconds from process start (`npm start` without the build step) to a healthy
 * /api/health on a fresh PGlite data directory. Target ≤ 3 s. Reported for the normal case (the
 * initialised-cluster template is cached, as after any earlier start or build) and for the very
 * first start on a machine (template made by initdb).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@atrium/server';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function coldStart(extraEnv: Record<string, string> = {}): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-p8-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/cli.ts', 'start', '--no-build'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...extraEnv,
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (response.status === 200) return (performance.now() - started) / 1000;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 60_000) throw new Error('no healthy answer within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const warm: number[] = [];
await coldStart(); // makes sure the template exists, as it does after `npm start` has run once
for (let i = 0; i < RUNS; i++) warm.push(await coldStart());
const emptyCache = mkdtempSync(path.join(tmpdir(), 'atrium-p8-cache-'));
const first = await coldStart({ ATRIUM_CACHE_DIR: emptyCache });
rmSync(emptyCache, { recursive: true, force: true });

const result = median(warm);
console.log(`P8 cold start to healthy /api/health, fresh PGlite data directory (migrations + demo seed included)`);
console.log(
  `  median of ${RUNS}: ${result.toFixed(2)} s  (runs: ${warm.map((v) => v.toFixed(2)).join(', ')})  target ≤ 3 s ${result <= 3 ? 'MET' : 'NOT MET'}`,
);
console.log(`  very first start on a machine (initdb, no cached template): ${first.toFixed(2)} s`);
