import type { RegisteredRoute } from '@atrium/sdk';

/**
 * Whether a link to a route shows in navigation and the palette (spec: module visibility follows
 * enabled modules and ViewModule on the module's UI resource; core modules are always enabled).
 * Public pages show to everyone; protected pages only to a signed-in user whose effective role
 * may view the module (and, when the route declares a permission of its own, may do that too). An
 * unanswered evaluation hides the link rather than show one that 403s.
 */
export const CORE_MODULES: ReadonlySet<string> = new Set(['users', 'my-account', 'all-products']);

export interface VisibilityInputs {
  signedIn: boolean;
  enabledModules: ReadonlySet<string>;
  /** ViewModule answer for a module; undefined while unknown. */
  viewable(moduleKey: string): boolean | undefined;
  /** The answer for a route's own permission (route meta `permission`); undefined while unknown. */
  permitted?(permission: { resource: string; action: string }): boolean | undefined;
}

/** `claims:claim` + `assign` → one key for the answer cache. */
export const permissionKey = (permission: { resource: string; action: string }) =>
  `${permission.resource}\u0000${permission.action}`;

export function isModuleEnabled(moduleKey: string, enabledModules: ReadonlySet<string>): boolean {
  return CORE_MODULES.has(moduleKey) || enabledModules.has(moduleKey);
}

export function isRouteVisible(route: RegisteredRoute | undefined, inputs: VisibilityInputs): boolean {
  if (!route) return false;
  if (route.meta.requiresAuth === false) return !route.meta.loginOnly || !inputs.signedIn;
  if (!inputs.signedIn) return false;
  if (!route.moduleKey || route.meta.exempt) return true;
  if (!isModuleEnabled(route.moduleKey, inputs.enabledModules) || inputs.viewable(route.moduleKey) !== true)
    return false;
  // A page only some roles of the module may use shows only once the permission is known to allow.
  return !route.meta.permission || inputs.permitted?.(route.meta.permission) === true;
}
