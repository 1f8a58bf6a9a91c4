import { useQueries } from '@tanstack/react-query';
import { createContext, createElement, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { RegisteredRoute } from '@atrium/sdk';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import { isRouteVisible, permissionKey } from './nav-visibility.js';

// Module-level, so react-query keeps the combined array (structurally shared) across renders: a
// new array on every render made every nav list, and the palette's 10,000-item index, rebuild on
// every keystroke.
const answerData = (results: { data?: boolean | undefined }[]) => results.map((result) => result.data);

/**
 * Asks ViewModule for every enabled module once per effective role (the access client batches the
 * questions into one call and caches the answers) and returns a visibility test for routes.
 */
export function useRouteVisibility(): (route: RegisteredRoute | undefined) => boolean {
  return useRouteVisibilityState().isVisible;
}

export interface RouteVisibilityState {
  isVisible: (route: RegisteredRoute | undefined) => boolean;
  settled: boolean;
}

const RouteVisibilityContext = createContext<RouteVisibilityState | null>(null);

/**
 * Works out route visibility once for everything below it. Each of the shell's nav lists (the
 * sidebar's main and agent lists, the module strip, the user menu's two) asked react-query for every
 * module's answer itself: five observers of ~20 queries each, rebuilt on every re-render while the
 * page loads, the sidebar's largest cost on the claim workspace's first renders (issue 13, TBT).
 */
export function RouteVisibilityProvider({ children }: { children: ReactNode }) {
  return createElement(RouteVisibilityContext.Provider, { value: useRouteVisibilityAnswers() }, children);
}

/**
 * `useRouteVisibility`, and whether every module's ViewModule answer is in (`settled`): before
 * then a module whose answer is pending counts as not visible.
 */
export function useRouteVisibilityState(): RouteVisibilityState {
  const state = useContext(RouteVisibilityContext);
  if (!state) throw new Error('useRouteVisibility must be used inside RouteVisibilityProvider (HostApp has one).');
  return state;
}

function useRouteVisibilityAnswers(): RouteVisibilityState {
  const runtime = useHostRuntime();
  const signedIn = useRuntimeStore(
    (r) => r.auth,
    (s) => s.session !== null,
  );
  const role = useRuntimeStore(
    (r) => r.auth,
    (s) => s.effectiveRole,
  );
  const enabledModules = useMemo(
    () => new Set(runtime.plugins.plugins().flatMap((p) => (p.moduleKey ? [p.moduleKey] : []))),
    [runtime],
  );
  const modules = useMemo(() => [...enabledModules], [enabledModules]);
  const answers = useQueries({
    queries: modules.map((moduleKey) => ({
      queryKey: ['access', role, 'ViewModule', moduleKey],
      queryFn: () => runtime.access.canViewModule(moduleKey),
      enabled: signedIn,
      staleTime: Infinity,
      retry: false,
    })),
    combine: answerData,
  });
  const byModule = useMemo(() => new Map(modules.map((m, i) => [m, answers[i]])), [modules, answers]);
  // Routes that need a permission of their own (route meta `permission`), asked once each.
  const permissions = useMemo(() => {
    const unique = new Map<string, { resource: string; action: string }>();
    for (const route of runtime.plugins.routes())
      if (route.meta.permission) unique.set(permissionKey(route.meta.permission), route.meta.permission);
    return [...unique.values()];
  }, [runtime]);
  const permissionAnswers = useQueries({
    queries: permissions.map((permission) => ({
      queryKey: ['access', role, permission.resource, permission.action],
      queryFn: () => runtime.access.evaluate({ resource: permission.resource, action: permission.action }),
      enabled: signedIn,
      staleTime: Infinity,
      retry: false,
    })),
    combine: answerData,
  });
  const byPermission = useMemo(
    () => new Map(permissions.map((p, i) => [permissionKey(p), permissionAnswers[i]])),
    [permissions, permissionAnswers],
  );
  const isVisible = useCallback(
    (route: RegisteredRoute | undefined) =>
      isRouteVisible(route, {
        signedIn,
        enabledModules,
        viewable: (m) => byModule.get(m),
        permitted: (p) => byPermission.get(permissionKey(p)),
      }),
    [signedIn, enabledModules, byModule, byPermission],
  );
  const settled = signedIn && answers.every((answer) => answer !== undefined);
  return useMemo(() => ({ isVisible, settled }), [isVisible, settled]);
}
