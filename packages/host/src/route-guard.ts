import { safeRedirectTarget } from './redirect-target.js';

/**
 * The spec's route guard as a pure decision: given where the user wants to go, what the target
 * route declares and the session as it stands after the refresh, say whether to continue, redirect,
 * reload or sign out first. `guard-navigation.ts` feeds it from the stores and carries it out.
 */
export interface GuardRouteMeta {
  /** The page needs a signed-in user. */
  requiresAuth: boolean;
  /** Only for users who are not signed in (the login pages). */
  loginOnly: boolean;
  /** Skips the module authorization check (e.g. /forbidden itself). */
  exempt: boolean;
  /** Access module key; the page needs ViewModule on `ui:<module>`. */
  module?: string | undefined;
  /** A permission the page needs besides ViewModule (route meta `permission`). */
  permission?: { resource: string; action: string } | undefined;
}

export interface GuardTarget {
  pathname: string;
  search: string;
  hash: string;
}

export interface GuardSession {
  /** The session refresh before this navigation threw. */
  refreshFailed: boolean;
  authenticated: boolean;
  /** Signed in, but idle for longer than the carrier's session timeout. */
  sessionTimedOut: boolean;
  effectiveRole: string | null;
  /** ViewModule on the route's module for the effective role; undefined when not asked. */
  moduleViewable: boolean | undefined;
  /** The route's own permission for the effective role; undefined when not asked (or none). */
  permitted?: boolean | undefined;
}

export type GuardDecision =
  | { action: 'continue'; signOut: boolean }
  | { action: 'redirect'; to: string; signOut: boolean }
  | { action: 'reload'; href: string; signOut: boolean };

export const PAGE_RELOAD_FLAG = 'pageReload';
export const LOGIN_PATH = '/login';
export const FORBIDDEN_PATH = '/forbidden';

export function fullPath(target: GuardTarget): string {
  return `${target.pathname}${target.search}${target.hash}`;
}

/** `/login?redirect=<wanted path>`; no query when the wanted path is the root. */
export function loginPathFor(target: GuardTarget): string {
  if (target.pathname === '/') return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: fullPath(target) }).toString()}`;
}

/** Only worth an evaluation call when the last rule could apply. */
export function moduleCheckNeeded(
  meta: GuardRouteMeta,
  session: Omit<GuardSession, 'moduleViewable' | 'permitted'>,
): boolean {
  const authenticated = session.authenticated && !session.refreshFailed && !session.sessionTimedOut;
  return authenticated && session.effectiveRole !== null && meta.requiresAuth && !meta.exempt && Boolean(meta.module);
}

/** The route's own permission is asked under the same conditions, when it declares one. */
export function permissionCheckNeeded(
  meta: GuardRouteMeta,
  session: Omit<GuardSession, 'moduleViewable' | 'permitted'>,
): boolean {
  const authenticated = session.authenticated && !session.refreshFailed && !session.sessionTimedOut;
  return authenticated && session.effectiveRole !== null && meta.requiresAuth && !meta.exempt && !!meta.permission;
}

export function decideNavigation(
  target: GuardTarget,
  meta: GuardRouteMeta,
  session: GuardSession,
  origin?: string,
): GuardDecision {
  let signOut = false;
  let authenticated = session.authenticated;

  // A failed refresh means the session can no longer be trusted (spec: sign out).
  if (session.refreshFailed) {
    signOut = true;
    authenticated = false;
  }

  const query = new URLSearchParams(target.search);
  if (query.has(PAGE_RELOAD_FLAG)) {
    query.delete(PAGE_RELOAD_FLAG);
    const search = query.toString();
    return { action: 'reload', href: `${target.pathname}${search ? `?${search}` : ''}${target.hash}`, signOut };
  }

  if (authenticated && session.sessionTimedOut) {
    signOut = true;
    authenticated = false;
  }

  if (meta.requiresAuth && !authenticated) {
    return { action: 'redirect', to: loginPathFor(target), signOut };
  }

  if (meta.loginOnly && authenticated) {
    let to = safeRedirectTarget(query.get('redirect'), origin);
    // A redirect back into the login pages would bounce between the two rules forever.
    if (to === LOGIN_PATH || to.startsWith(`${LOGIN_PATH}/`) || to.startsWith(`${LOGIN_PATH}?`)) to = '/';
    return { action: 'redirect', to, signOut };
  }

  if (
    authenticated &&
    session.effectiveRole !== null &&
    meta.requiresAuth &&
    !meta.exempt &&
    meta.module &&
    session.moduleViewable === false
  ) {
    return { action: 'redirect', to: FORBIDDEN_PATH, signOut };
  }

  // A page only some of the module's roles may use (e.g. Assign claims, the admin setup).
  if (
    authenticated &&
    session.effectiveRole !== null &&
    meta.requiresAuth &&
    !meta.exempt &&
    meta.permission &&
    session.permitted === false
  ) {
    return { action: 'redirect', to: FORBIDDEN_PATH, signOut };
  }

  return { action: 'continue', signOut };
}
