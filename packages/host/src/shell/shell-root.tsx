import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import {
  useActivityTracking,
  useFocusContext,
  useGlobalKeybindings,
  useRouteContext,
  useRouterNavigation,
  useSessionTimeoutSetting,
} from './use-shell-effects.js';

const ShellOverlays = lazy(() => import('./shell-overlays.js'));

/**
 * The root route's element: wires the runtime to the router and the DOM, and hosts the overlays
 * every layout shares (palette, `?` modal, quick search, help, toasts).
 */
export function ShellRoot() {
  useRouterNavigation();
  useGlobalKeybindings();
  useFocusContext();
  useRouteContext();
  useActivityTracking();
  useSessionTimeoutSetting();
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        <ShellOverlays />
      </Suspense>
    </>
  );
}
