import type { Queryable, ServerPluginContext } from './define-server-plugin.js';

/**
 * Typed services between plugins: the only way one module writes another's tables. The provider
 * lists `provideService(ref, factory)` in `defineServerPlugin({ provides: { services } })`, the
 * consumer lists the ref in its `deps` and calls `context.service(ref)`. Every method takes the
 * caller's transaction first, so that the consumer's write and the provider's write commit or roll
 * back together. A ref in some plugin's `deps` that no installed plugin provides stops the server
 * at start.
 */

/** A service's methods: each takes the caller's transaction first. */
export type ServiceMethods = { [method: string]: (tx: Queryable, ...args: any[]) => unknown };

export interface ServiceRef<T extends ServiceMethods> {
  readonly kind: 'service-ref';
  /** `<plugin>.<service>`, e.g. `claims.claim-lookup`. */
  readonly id: string;
  /** Carries `T` for the type checker only; never set. */
  readonly __service?: T;
}

const SERVICE_ID = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

/** Declares a service by id; share the ref (and the type) from the provider's `shared/` code. */
export function createServiceRef<T extends ServiceMethods>(id: string): ServiceRef<T> {
  if (!SERVICE_ID.test(id)) throw new Error(`Service id '${id}' must be '<plugin>.<service>', lowercase with dashes.`);
  return Object.freeze({ kind: 'service-ref' as const, id });
}

export interface ServiceProvision<T extends ServiceMethods = ServiceMethods> {
  readonly ref: ServiceRef<T>;
  /** Builds the implementation once per server, on first use. */
  readonly create: (context: ServerPluginContext) => T;
}

/** Pairs a ref with its implementation; the implementation is checked against the ref's type. */
export function provideService<T extends ServiceMethods>(
  ref: ServiceRef<T>,
  create: (context: ServerPluginContext) => T,
): ServiceProvision<T> {
  return { ref, create };
}

export function isServiceRef(value: unknown): value is ServiceRef<ServiceMethods> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'service-ref';
}
