import { lazy, Suspense, useEffect, useState } from 'react';
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

/** The longest the overlays wait for an idle moment after the first render. */
const OVERLAYS_IDLE_TIMEOUT_MS = 1500;

/**
 * True once the browser has had an idle moment after the first render (or the timeout passed):
 * the overlays' code (palette, modals, toasts; ~80 KB) then downloads after the page's own chunk
 * and data instead of competing with them. A shortcut pressed before only sets the store's state
 * (palette open, toast queued), which the overlays show as soon as they mount.
 */
function useAfterFirstIdle(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: OVERLAYS_IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(() => setReady(true), 0);
    return () => clearTimeout(timer);
  }, []);
  return ready;
}

/**
 * The root route's element: wires the runtime to the router and the DOM, and hosts the overlays
 * every layout shares (palette, `?` modal, quick search, help, toasts) once the page is up.
 */
export function ShellRoot() {
  useRouterNavigation();
  useGlobalKeybindings();
  useFocusContext();
  useRouteContext();
  useActivityTracking();
  useSessionTimeoutSetting();
  const overlays = useAfterFirstIdle();
  return (
    <>
      <Outlet />
      {overlays && (
        <Suspense fallback={null}>
          <ShellOverlays />
        </Suspense>
      )}
    </>
  );
}
