import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type {
  AccessEvaluator,
  Authenticator,
  PermissionDeclaration,
  PlatformServices,
  Principal,
  RoleDirectory,
  RouteAccess,
} from './access.js';
import type { EventDefinition } from './events.js';
import type { MailService } from './mail.js';
import type { ObjectStorage } from './object-storage.js';
import type { Secrets } from './secrets/index.js';
import {
  isPermissionSet,
  type DefaultGrants,
  type PermissionDefaultsInstaller,
  type PermissionSet,
} from './permissions.js';
import { isServiceRef, type ServiceMethods, type ServiceProvision, type ServiceRef } from './services.js';
import type { GatewayMethod } from './gateway.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route. Every route must declare it; the server refuses to start otherwise. */
    access?: RouteAccess;
    /** The route speaks JSON:API: content negotiation (415/406) and JSON:API error documents. */
    jsonapi?: boolean;
  }
  interface FastifyRequest {
    /**
     * The caller, resolved before the handler of every route whose access is `authenticated` or a
     * permission (the request is refused with 401 otherwise), so it is never null there. Public
     * routes have no caller: do not read it in their handlers.
     */
    principal: Principal;
  }
}

/** The Fastify instance a plugin's routes are registered on: zod schemas, its own prefix. */
export type AtriumRouter = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export type Database = NodePgDatabase<Record<string, never>>;
/** A database or a transaction: anything a query can run on. */
export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export interface JobQueue {
  send(
    name: string,
    data: object,
    options?: { singletonKey?: string; startAfter?: number | string | Date },
  ): Promise<string | null>;
}

export interface ServerPluginContext {
  db: Database;
  /** The node-postgres pool behind `db`; on the embedded database it holds one connection. */
  pool: pg.Pool;
  databaseKind: 'pglite' | 'postgres';
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** Services other plugins provide (role directory, evaluator, authenticator); null when absent. */
  services: PlatformServices;
  /** Object storage for file bytes (docs/storage.md). */
  storage: ObjectStorage;
  /** Outgoing e-mail: enqueue in your transaction, a job sends it over SMTP (docs/mail.md). */
  mail: MailService;
  /** Seals secrets stored at rest (TOTP secrets, webhook secrets, OAuth tokens; docs/security.md). */
  secrets: Secrets;
  /**
   * Another plugin's service (list its ref in `deps`); call its methods with your transaction.
   * Throws when no installed plugin provides it (the server refuses to start in that case anyway).
   */
  service<T extends ServiceMethods>(ref: ServiceRef<T>): T;
  /**
   * A service your module uses when it is installed and does without otherwise (do not list it in
   * `deps`): null when no installed plugin provides it. E.g. claims reads the policies module's
   * policies when it is there, contacts lists a contact's claims when claims is there.
   */
  optionalService<T extends ServiceMethods>(ref: ServiceRef<T>): T | null;
}

export interface SeedContext {
  /** The seed transaction: every plugin's demo records land together or not at all. */
  tx: Queryable;
  log: FastifyBaseLogger;
  /** Object storage, for demo files (their rows go in `tx`). */
  storage: ObjectStorage;
  /**
   * Another plugin's service, as at run time (list its ref in `deps`); call it with `tx` so that its
   * reads see the demo records the provider's seed wrote earlier in this transaction.
   */
  service<T extends ServiceMethods>(ref: ServiceRef<T>): T;
  /**
   * A service used when installed (list its ref in `optionalDeps` so that its provider seeds first):
   * null when no installed plugin provides it. E.g. the claims demo files its claims on the policies
   * demo's policies through POLICY_LOOKUP.
   */
  optionalService<T extends ServiceMethods>(ref: ServiceRef<T>): T | null;
}

/**
 * A volume generator (`npm run seed -- --<name> N`): appends N synthetic records of one kind in bulk
 * (set-based SQL, not row by row) on top of the demo data, for load tests and benchmarks. Returns
 * what it wrote, to print.
 */
export type VolumeSeed = (
  context: { db: Database; log: FastifyBaseLogger; progress: (message: string) => void },
  count: number,
) => Promise<Record<string, number>>;

export interface JobDefinition<Data extends object = object> {
  name: string;
  handler: (data: Data, context: ServerPluginContext) => Promise<void>;
  /**
   * Seconds between polls when idle (pg-boss `pollingIntervalSeconds`). Where the API process works
   * its own jobs, a `jobs.send` from it wakes the worker at once, and idle polling is at least every
   * 10 s (docs/architecture.md, "Jobs").
   */
  pollingIntervalSeconds?: number;
  /**
   * The job is sent inside the sender's transaction (pg-boss's `db` option), where no wake-up can
   * follow the commit: the worker keeps polling at `pollingIntervalSeconds`.
   */
  sentInTransactions?: boolean;
  retryLimit?: number;
}

/** What a plugin's `background` hook started; stopped at shutdown. */
export interface BackgroundWork {
  stop(): Promise<void>;
}

export interface ServerPluginDefinition {
  /** Module id, e.g. `claims`. Also the default API prefix `/api/<id>`. */
  id: string;
  title?: string;
  /**
   * Plugins whose migrations and seeds must run before this one, by id, and the services of other
   * plugins this one calls (service refs): their providers come first, and a service no installed
   * plugin provides stops the server at start.
   */
  deps?: (string | ServiceRef<any>)[];
  /**
   * Like `deps` for modules this one does without when absent (plugin ids or service refs): those
   * installed come first (their seeds too, so an optional service reads their demo records); those
   * not installed are skipped.
   */
  optionalDeps?: (string | ServiceRef<any>)[];
  /** API prefix; defaults to `/api/<id>`. */
  prefix?: string;
  /** The Postgres schema this plugin owns; its tables live only there. */
  dbSchema?: string;
  /** Absolute path of the plugin's generated SQL migrations (drizzle-kit). */
  migrationsFolder?: string;
  permissions?: PermissionDeclaration[];
  /** Default grants per system role (from `definePermissions`), applied by the access module. */
  defaultGrants?: DefaultGrants;
  /** The events this plugin may emit (`defineEvent`); emitting anything else is an error. */
  events?: EventDefinition<any>[];
  jobs?: JobDefinition<any>[];
  /**
   * Long-running background work (a poller, a dispatcher) that runs where jobs are worked: in
   * `atrium start` unless ATRIUM_WORKERS=false, and in every `atrium worker`; never in `migrate`,
   * `seed` or template builds. Called once jobs are running; `stop` is awaited at shutdown, before
   * the database closes. Keep its state in the database: several processes may run it at once.
   */
  background?: (context: ServerPluginContext) => BackgroundWork | Promise<BackgroundWork>;
  /** The classic gateway's methods this plugin answers (`defineGatewayMethod`, gateway.ts). */
  gateway?: GatewayMethod<any>[];
  routes?: (router: AtriumRouter, context: ServerPluginContext) => void | Promise<void>;
  /**
   * Platform services a plugin supplies to the core: the identity plugin the authenticator that
   * resolves a request's caller, the access plugin the evaluator every route is checked by. At most
   * one installed plugin may provide each.
   */
  provides?: {
    authenticator?: (context: ServerPluginContext) => Authenticator;
    accessEvaluator?: (context: ServerPluginContext) => AccessEvaluator;
    roleDirectory?: (context: ServerPluginContext) => RoleDirectory;
    /** Applies installed plugins' default grants at start (the access module). */
    permissionDefaults?: (context: ServerPluginContext) => PermissionDefaultsInstaller;
    /** Services other plugins call (`provideService(ref, factory)`); at most one provider per ref. */
    services?: ServiceProvision<any>[];
  };
  /** Adds the plugin's demo records on the first start of an empty database and on `seed --reset`. */
  seed?: (context: SeedContext) => Promise<void>;
  /**
   * Volume generators by name: `volumes: { claims: … }` answers `npm run seed -- --claims 1000000`
   * (docs/claims.md, "Claim list performance"). The seed CLI knows the names `claims` and `policies`.
   */
  volumes?: Record<string, VolumeSeed>;
}

/** What `defineServerPlugin` accepts: permissions may be a `definePermissions` set. */
export interface ServerPluginInput extends Omit<ServerPluginDefinition, 'permissions' | 'defaultGrants'> {
  permissions?: PermissionDeclaration[] | PermissionSet<any>;
}

const PLUGIN_ID = /^[a-z][a-z0-9-]*$/;

export function defineServerPlugin(input: ServerPluginInput): ServerPluginDefinition {
  const { permissions, ...rest } = input;
  const definition: ServerPluginDefinition = isPermissionSet(permissions)
    ? { ...rest, permissions: permissions.declarations, defaultGrants: permissions.defaultGrants }
    : { ...rest, permissions };
  if (isPermissionSet(permissions) && permissions.plugin !== definition.id) {
    throw new Error(`Server plugin '${definition.id}' uses the permissions of '${permissions.plugin}'.`);
  }
  for (const dep of definition.deps ?? []) {
    if (typeof dep !== 'string' && !isServiceRef(dep)) {
      throw new Error(
        `Server plugin '${definition.id}' has a dependency that is neither a plugin id nor a service ref.`,
      );
    }
  }
  if (!PLUGIN_ID.test(definition.id)) {
    throw new Error(`Server plugin id '${definition.id}' must be lowercase letters, digits and dashes.`);
  }
  if (definition.migrationsFolder && !definition.dbSchema) {
    throw new Error(`Server plugin '${definition.id}' has migrations but declares no dbSchema.`);
  }
  for (const permission of definition.permissions ?? []) {
    if (!permission.resource || !permission.action) {
      throw new Error(`Server plugin '${definition.id}' declares a permission without resource or action.`);
    }
  }
  return definition;
}
