import type { RegisteredRoute } from '@atrium/sdk';
import type { GuardRouteMeta } from '../route-guard.js';

/** What the host hangs on every router route (`handle`), read by the guard and the shell. */
export interface HostRouteHandle {
  route: RegisteredRoute;
}

export function isHostRouteHandle(value: unknown): value is HostRouteHandle {
  return typeof value === 'object' && value !== null && 'route' in value;
}

/** Manifest meta with the SDK's defaults applied: pages need auth unless they say otherwise. */
export function guardMetaOf(route: RegisteredRoute | undefined): GuardRouteMeta {
  if (!route) return { requiresAuth: false, loginOnly: false, exempt: false };
  return {
    requiresAuth: route.meta.requiresAuth ?? true,
    loginOnly: route.meta.loginOnly ?? false,
    exempt: route.meta.exempt ?? false,
    module: route.moduleKey,
    permission: route.meta.permission,
  };
}
