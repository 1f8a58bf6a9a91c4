import { parseArgs } from 'node:util';
import type { Atrium } from './atrium.js';
import { buildWeb, webBuildIsStale } from './build-web.js';
import { ConfigError, loadConfig } from './config.js';
import { openStartDatabase } from './database/open-start-database.js';
import { ensureSeededSnapshot } from './database/seeded-snapshot.js';
import { DEFAULT_WEB_DIST } from './paths.js';
import { shutdownTracing } from './tracing/tracing-state.js';
import { seedVolumes } from './seed-volumes.js';

// The HTTP stack is loaded after the database has started opening: loading both takes about as
// long as either alone, and start-up time is something operators wait for on every deploy.
const loadAtrium = () => import('./atrium.js');

/**
 * atrium start            build what is missing, migrate, seed an empty database, serve API + SPA
 * atrium migrate          apply migrations and exit
 * atrium seed [--reset]   seed an empty database; --reset drops every module's data and reseeds
 *   [--claims N]           then append N synthetic claims (and --policies N, once a module generates them)
 * atrium worker           run background jobs only (for scale-out beside stateless API processes)
 * atrium snapshot         build the seeded snapshot new embedded data directories start from
 *                         (`npm run build` does; `start` builds it too when it is missing or stale)
 */
const SHUTDOWN_GRACE_MS = 15_000;

function onShutdown(atrium: Atrium) {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    atrium.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      atrium.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await atrium.close();
      await shutdownTracing(); // sends the spans still buffered
      process.exit(0);
    } catch (error) {
      atrium.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      reset: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      // Volume generators (seed-volumes.ts): seed --claims 1000000; --policies waits for the policies module.
      claims: { type: 'string' },
      policies: { type: 'string' },
    },
  });
  const command = positionals[0] ?? 'start';
  const config = loadConfig();

  switch (command) {
    case 'start': {
      config.webDist ??= DEFAULT_WEB_DIST;
      if (!values['no-build'] && webBuildIsStale(config.webDist)) buildWeb();
      const database = openStartDatabase(config, { seed: true });
      database.catch(() => {}); // reported by createAtrium's await below
      const { createAtrium } = await loadAtrium();
      const atrium = await createAtrium({ config, seed: 'auto', database });
      onShutdown(atrium);
      await atrium.app!.listen({ port: config.port, host: config.host });
      const { kind, startedFrom } = atrium.database;
      atrium.log.info({ url: `http://localhost:${config.port}`, database: kind, startedFrom }, 'Atrium is serving');
      return;
    }
    case 'worker': {
      const { createAtrium } = await loadAtrium();
      const atrium = await createAtrium({ config: { ...config, workers: true }, http: false, seed: 'never' });
      onShutdown(atrium);
      atrium.log.info('Atrium worker is running');
      return;
    }
    case 'migrate': {
      const { createAtrium } = await loadAtrium();
      const atrium = await createAtrium({ config: { ...config, workers: false }, http: false, seed: 'never' });
      atrium.log.info({ plugins: atrium.plugins.map((p) => p.id) }, 'migrations applied');
      await atrium.close();
      return;
    }
    case 'seed': {
      const { createAtrium } = await loadAtrium();
      const atrium = await createAtrium({
        config: { ...config, workers: false },
        http: false,
        seed: values.reset ? 'reset' : 'auto',
      });
      try {
        await seedVolumes(atrium, { claims: values.claims, policies: values.policies });
      } finally {
        await atrium.close();
      }
      return;
    }
    case 'snapshot': {
      const started = performance.now();
      const snapshot = await ensureSeededSnapshot();
      console.log(`seeded snapshot ${snapshot.key} ready in ${Math.round(performance.now() - started)} ms`);
      return;
    }
    default:
      throw new ConfigError(`Unknown command '${command}'. Use start, worker, migrate, seed [--reset] or snapshot.`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
