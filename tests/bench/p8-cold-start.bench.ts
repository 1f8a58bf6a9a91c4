/**
 * P8 cold start: seconds from process start (`npm start` without the build step: the built server in
 * dist/server) to a healthy /api/health. Targets: ≤ 3 s on a fresh PGlite data directory (demo data
 * included; it starts from the seeded snapshot `npm run build` made) and ≤ 1.5 s for a restart on an
 * existing one. Also reported: the very first start on a machine (no cached initdb template or
 * snapshot: both are made), and, as the baseline of the same run, the way the server started before
 * it was built: TypeScript through tsx, migrations and seed statement by statement
 * (BENCH_P8_BASELINE runs of it, default 1; 0 skips it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@atrium/server';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BASELINE_RUNS = Number(process.env.BENCH_P8_BASELINE ?? 1);
const BUILT = ['scripts/start-server.mjs', 'start', '--no-build'];
const FROM_SOURCES = ['--import', 'tsx', 'packages/server/src/cli.ts', 'start', '--no-build'];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Start {
  seconds: number;
  /** The start-up phases the server logged ("started"), in ms. */
  phases?: Record<string, number>;
}

async function start(dataDir: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let phases: Record<string, number> | undefined;
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const line = output.split('\n').find((l) => l.includes('"msg":"started"'));
    if (line) phases ??= (JSON.parse(line) as { phases: Record<string, number> }).phases;
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (response.status === 200) return { seconds: (performance.now() - started) / 1000, phases };
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 300_000) throw new Error('no healthy answer within 300 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'atrium-p8-'));
async function fresh(args: string[], extraEnv: Record<string, string> = {}): Promise<Start> {
  const dir = freshDir();
  try {
    return await start(dir, args, extraEnv);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (runs: Start[]) => runs.map((run) => run.seconds);
function report(label: string, runs: Start[], target?: number) {
  const value = median(seconds(runs));
  const verdict = target === undefined ? '' : `  target ≤ ${target} s ${value <= target ? 'MET' : 'NOT MET'}`;
  console.log(`  ${label}`);
  console.log(
    `    median of ${runs.length}: ${value.toFixed(2)} s  (runs: ${seconds(runs)
      .map((v) => v.toFixed(2))
      .join(', ')})${verdict}`,
  );
  const last = runs.at(-1)?.phases;
  if (last) console.log(`    phases of the last run (ms): ${JSON.stringify(last)}`);
}

// The built server and its snapshot, as `npm run build` leaves them (quick when nothing changed).
const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
if (build.status !== 0) throw new Error('building the server failed');

const freshRuns: Start[] = [];
const restartRuns: Start[] = [];
const restartDir = freshDir();
try {
  await start(restartDir, BUILT); // the directory later runs restart on; also warms the file cache
  for (let i = 0; i < RUNS; i++) {
    freshRuns.push(await fresh(BUILT));
    restartRuns.push(await start(restartDir, BUILT));
  }
} finally {
  rmSync(restartDir, { recursive: true, force: true });
}
const emptyCache = mkdtempSync(path.join(tmpdir(), 'atrium-p8-cache-'));
const first = await fresh(BUILT, { ATRIUM_CACHE_DIR: emptyCache });
rmSync(emptyCache, { recursive: true, force: true });
const baseline: Start[] = [];
for (let i = 0; i < BASELINE_RUNS; i++) baseline.push(await fresh(FROM_SOURCES, { ATRIUM_SNAPSHOT: 'off' }));

console.log('P8 cold start to healthy /api/health (embedded PGlite, demo data included)');
report('fresh data directory (from the seeded snapshot)', freshRuns, 3);
report('restart on an existing data directory', restartRuns, 1.5);
report('very first start on a machine (initdb template and snapshot made first)', [first]);
if (baseline.length) report('baseline, same run: from sources through tsx, migrate + seed', baseline);
