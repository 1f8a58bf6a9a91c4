import { matchRoutes, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import type { HostRuntime } from '../host-runtime.js';
import { decideNavigation, moduleCheckNeeded, permissionCheckNeeded, type GuardSession } from '../route-guard.js';
import { preloadPage } from './lazy-page.js';
import { guardMetaOf, isHostRouteHandle } from './route-handle.js';

/**
 * Runs the route guard before every navigation: it is the root route's loader and the root always
 * revalidates. It refreshes the session, asks the access service when the module rule (and the
 * route's own permission, when it declares one) can apply,
 * lets `decideNavigation` decide, and carries the decision out.
 */
export interface GuardLoaderOptions {
  runtime: Pick<HostRuntime, 'auth' | 'access'>;
  routes(): RouteObject[];
  /** Full page load for the pageReload flag; replaced in tests. */
  reload?(href: string): void;
}

export function createGuardLoader({ runtime, routes, reload }: GuardLoaderOptions) {
  const { auth, access } = runtime;
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const url = new URL(request.url);
    const leaf = matchRoutes(routes(), url.pathname)?.at(-1)?.route.handle;
    const meta = guardMetaOf(isHostRouteHandle(leaf) ? leaf.route : undefined);
    // The page's code downloads while the checks below are answered (the server checks every call,
    // so loading the code of a page the guard then refuses shows nothing). In a task of its own,
    // after the session request has gone out: announcing the page's ~25 chunks is ~10 ms of main
    // thread that made the app's first task longer (issue 13, Total Blocking Time).
    if (isHostRouteHandle(leaf) && leaf.route.loader) {
      const pageLoader = leaf.route.loader;
      setTimeout(() => preloadPage(pageLoader), 0);
    }

    let refreshFailed = false;
    try {
      await auth.getState().refreshSession();
    } catch (error) {
      console.error('Unable to refresh session', error);
      refreshFailed = true;
    }
    const state = auth.getState();
    const session: GuardSession = {
      refreshFailed,
      authenticated: state.session !== null,
      sessionTimedOut: state.isSessionTimedOut(),
      effectiveRole: state.effectiveRole,
      moduleViewable: undefined,
    };
    if (moduleCheckNeeded(meta, session) && meta.module) {
      // An unanswered evaluation leaves the decision to the server, which checks every call anyway.
      session.moduleViewable = await access.canViewModule(meta.module).catch(() => undefined);
    }
    if (session.moduleViewable !== false && permissionCheckNeeded(meta, session) && meta.permission) {
      session.permitted = await access.evaluate(meta.permission).catch(() => undefined);
    }

    const decision = decideNavigation(
      { pathname: url.pathname, search: url.search, hash: url.hash },
      meta,
      session,
      url.origin,
    );
    if (decision.signOut) await state.signOut();
    switch (decision.action) {
      case 'reload':
        (reload ?? ((href: string) => window.location.replace(href)))(decision.href);
        // The page is going away; never settle so the router renders nothing in between.
        return new Promise<null>(() => {});
      case 'redirect':
        throw redirect(decision.to);
      case 'continue':
        auth.getState().touch();
        return null;
    }
  };
}
