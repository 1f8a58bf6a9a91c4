import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import type {
  AccessEvaluator,
  Authenticator,
  BackgroundWork,
  PlatformServices,
  RoleDirectory,
  ObjectStorage,
  ServerPluginContext,
  ServerPluginDefinition,
} from '@atrium/sdk/server';
import { loadSecrets } from '@atrium/sdk/server';
import { buildApp } from './app.js';
import type { AtriumConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './database/connect.js';
import { prepareSchema } from './database/prepare-schema.js';
import type { AccessServices, RegisteredRoute } from './http/access-control.js';
import { discoverServerPlugins } from './installed-plugins.js';
import { Jobs } from './jobs/job-queue.js';
import { createPlatformMail } from './mail/mail-service.js';
import { applyPermissionDefaults } from './permission-defaults.js';
import { preparePlugins } from './plugin-order.js';
import { serviceResolver } from './plugin-services.js';
import { isSeeded, runSeeds } from './seed.js';
import { createObjectStorage } from './storage/create-object-storage.js';
import { traceLogFields } from './tracing/trace-log-fields.js';
import { tracingActive } from './tracing/tracing-state.js';

/**
 * One Atrium process: database, migrations, demo data on first start, jobs, HTTP. `start`, `worker`,
 * the test server and the benchmarks all build it here, so they run the same thing.
 */
export interface AtriumOptions {
  config: AtriumConfig;
  /** Defaults to core + every plugin under plugins/. */
  plugins?: ServerPluginDefinition[];
  access?: AccessServices;
  /** `auto`: seed an empty database; `never`: leave it empty; `reset`: drop everything and seed. */
  seed?: 'auto' | 'never' | 'reset';
  /** Serve HTTP (false for `atrium worker`). */
  http?: boolean;
  logStream?: NodeJS.WritableStream;
  /** A database already being opened (the CLI starts opening it before loading the HTTP stack). */
  database?: Promise<DatabaseHandle>;
}

export interface Atrium {
  app: FastifyInstance | null;
  database: DatabaseHandle;
  jobs: Jobs;
  plugins: ServerPluginDefinition[];
  routes: RegisteredRoute[];
  log: FastifyBaseLogger;
  /** The object storage every plugin gets as `context.storage`. */
  storage: ObjectStorage;
  /**
   * Stops taking requests, lets in-flight ones finish for `graceMs` (default 10 s) and then cuts
   * the connections still open (a client that stopped sending half-way must not hold a deploy or a
   * test run forever), then stops jobs and closes the database.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

const CLOSE_GRACE_MS = 10_000;

export async function createAtrium(options: AtriumOptions): Promise<Atrium> {
  const { config } = options;
  // With tracing on, every line logged inside a request or job names its trace (tracing/).
  const logOptions = { level: config.logLevel, ...(tracingActive() ? { mixin: traceLogFields } : {}) };
  const log = (options.logStream ? pino(logOptions, options.logStream) : pino(logOptions)) as FastifyBaseLogger;
  // Start-up phases in milliseconds, logged once the process is ready: operators wait for every one.
  const phases: Record<string, number> = {};
  let mark = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark);
    mark = now;
  };
  const plugins = preparePlugins(options.plugins ?? (await discoverServerPlugins()));
  phase('plugins');
  const database = await (options.database ??
    openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax }));
  phase('database');
  const jobs = new Jobs(database, log);
  const background: BackgroundWork[] = [];
  let app = null as FastifyInstance | null; // assigned inside httpReady below
  let closeMail = () => {};
  try {
    const platformStorage = await createObjectStorage(config);
    const secrets = await loadSecrets({
      secretKey: config.secretKey,
      dataDir: config.dataDir,
      databaseUrl: database.kind === 'postgres' ? (config.databaseUrl ?? 'postgres') : undefined,
    });
    const mail = createPlatformMail({ db: database.db, jobs, log, config: config.mail });
    closeMail = () => mail.close();
    const jobDefinitions = [...mail.jobs, ...plugins.flatMap((plugin) => plugin.jobs ?? [])];
    await prepareSchema({ config, database, plugins, jobs: jobDefinitions, reset: options.seed === 'reset', log });
    phase('migrations');
    // Built before the seed runs: seeds call other modules' services too (services are made on first
    // use, by then `context` below is set).
    const resolver = serviceResolver(plugins, () => context);
    // Demo data, the job queue and the HTTP app are made side by side: routes are only registered,
    // not served, until all three are done. On the embedded database the pool's one connection
    // takes the seed transaction first and the queue's statements after it.
    const seeding = (async () => {
      if (options.seed !== 'never' && (options.seed === 'reset' || !(await isSeeded(database)))) {
        const seeded = await runSeeds(database, plugins, log, platformStorage.storage, resolver);
        log.info({ plugins: seeded }, 'seeded demo data');
      }
      phase('seed');
    })();
    const context: ServerPluginContext = {
      db: database.db,
      pool: database.pool,
      databaseKind: database.kind,
      jobs,
      log,
      services: providedServices(plugins, () => context),
      storage: platformStorage.storage,
      mail: mail.service,
      secrets,
      service: resolver.service,
      optionalService: resolver.optionalService,
    };
    // Plugins' default grants join the access policies once the seed has made the system roles.
    const granting = seeding.then(() => applyPermissionDefaults(plugins, context));
    const jobsReady = granting.then(async () => {
      await jobs.start(jobDefinitions);
      if (config.workers || options.http === false) {
        // The API process sends most of the jobs it works: its sends wake its workers.
        await jobs.work(jobDefinitions, context, { wokenBySends: options.http !== false });
        await mail.resume();
      }
      // Plugins' background work runs where jobs are worked on purpose (start, worker), not in
      // migrate or seed (http false, workers false).
      if (config.workers) {
        for (const plugin of plugins) if (plugin.background) background.push(await plugin.background(context));
      }
    });

    let routes: RegisteredRoute[] = [];
    const access = options.access ?? {
      authenticator: context.services.authenticator,
      evaluator: context.services.evaluator,
    };
    const httpReady = (async () => {
      if (options.http === false) return;
      const built = await buildApp({
        database,
        plugins,
        jobs,
        context,
        access,
        logLevel: config.logLevel,
        webDist: config.webDist,
        trustProxy: config.trustProxy,
        logStream: options.logStream,
        storage: platformStorage,
      });
      app = built.app;
      routes = built.routes;
      await app.ready();
      phase('http');
    })();
    // allSettled first, so that a failure in one never leaves another running unobserved.
    const outcomes = await Promise.allSettled([seeding, granting, jobsReady, httpReady]);
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    phase('jobs');
    log.info({ phases }, 'started');
    let closed = false;
    return {
      app,
      database,
      jobs,
      plugins,
      routes,
      log,
      storage: platformStorage.storage,
      async close({ graceMs = CLOSE_GRACE_MS } = {}) {
        if (closed) return;
        closed = true;
        // Stop taking requests and let in-flight ones finish, then jobs, then the database.
        if (app) {
          const server = app.server;
          const deadline = setTimeout(() => {
            log.warn({ graceMs }, 'requests still open at shutdown; closing their connections');
            server.closeAllConnections();
          }, graceMs);
          try {
            await app.close();
          } finally {
            clearTimeout(deadline);
          }
        }
        await Promise.all(background.map((work) => work.stop()));
        await jobs.stop();
        closeMail();
        await database.close();
      },
    };
  } catch (error) {
    await Promise.all(background.map((work) => work.stop().catch(() => {})));
    await jobs.stop().catch(() => {});
    closeMail();
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}

/**
 * The services installed plugins provide (identity: authenticator; access: evaluator and role
 * directory), each created on first use so that providers may use one another.
 */
function providedServices(plugins: ServerPluginDefinition[], context: () => ServerPluginContext): PlatformServices {
  const providerOf = (key: 'authenticator' | 'accessEvaluator' | 'roleDirectory') => {
    const providers = plugins.filter((plugin) => plugin.provides?.[key]);
    if (providers.length > 1) {
      throw new Error(`Several plugins provide the ${key}: ${providers.map((p) => p.id).join(', ')}.`);
    }
    return providers[0]?.provides;
  };
  for (const key of ['authenticator', 'accessEvaluator', 'roleDirectory'] as const) providerOf(key);
  const cache = new Map<string, unknown>();
  const lazy = <T>(key: 'authenticator' | 'accessEvaluator' | 'roleDirectory'): T | null => {
    if (!cache.has(key))
      cache.set(key, (providerOf(key)?.[key] as ((c: ServerPluginContext) => T) | undefined)?.(context()) ?? null);
    return cache.get(key) as T | null;
  };
  return {
    get authenticator() {
      return lazy<Authenticator>('authenticator');
    },
    get evaluator() {
      return lazy<AccessEvaluator>('accessEvaluator');
    },
    get roleDirectory() {
      return lazy<RoleDirectory>('roleDirectory');
    },
  };
}
