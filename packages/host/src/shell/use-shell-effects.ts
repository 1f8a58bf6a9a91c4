import { attachKeybindings, isEditableTarget, targetInfo } from '@atrium/sdk';
import { useEffect } from 'react';
import { useMatches, useNavigate, useRevalidator } from 'react-router-dom';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import { isHostRouteHandle } from '../routing/route-handle.js';

/** Lets commands navigate with the router (no full page loads). */
export function useRouterNavigation() {
  const runtime = useHostRuntime();
  const navigate = useNavigate();
  useEffect(() => {
    runtime.setNavigate((to) => void navigate(to));
  }, [runtime, navigate]);
}

/** Shortcuts listen on the window once; the manager decides what a keystroke means. */
export function useGlobalKeybindings() {
  const runtime = useHostRuntime();
  useEffect(() => attachKeybindings(runtime.keybindings, window), [runtime]);
}

/** Mirrors focus into the `inputFocus` / `editorFocus` context keys that `when` clauses read. */
export function useFocusContext() {
  const runtime = useHostRuntime();
  useEffect(() => {
    const update = () => {
      const info = targetInfo(document.activeElement);
      runtime.context.setHostMany({
        inputFocus: isEditableTarget(info) && !info?.isEditor,
        editorFocus: Boolean(info?.isEditor),
      });
    };
    document.addEventListener('focusin', update);
    document.addEventListener('focusout', update);
    // A focused input that is removed (a closing modal) sends no focusout; re-read focus before
    // every keystroke (capture phase, ahead of the shortcut listener) so chords are not left blocked.
    document.addEventListener('keydown', update, true);
    return () => {
      document.removeEventListener('focusin', update);
      document.removeEventListener('focusout', update);
      document.removeEventListener('keydown', update, true);
    };
  }, [runtime]);
}

/** Publishes the current route name (`route` context key) and the page title. */
export function useRouteContext() {
  const runtime = useHostRuntime();
  const handle = useMatches().at(-1)?.handle;
  const route = isHostRouteHandle(handle) ? handle.route : undefined;
  useEffect(() => {
    runtime.context.setHost('route', route?.name ?? '');
    document.title = route?.meta.title ? `${route.meta.title} · Atrium` : 'Atrium';
  }, [runtime, route]);
}

/** Spec: the session is checked every 60 s. */
export const SESSION_CHECK_INTERVAL_MS = 60_000;

/**
 * Input counts as activity for the idle session timeout (throttled). An idle user's first click
 * must not revive a session that has already timed out, so activity past the timeout is ignored
 * and the periodic check re-runs the guard, which signs the user out.
 */
export function useActivityTracking() {
  const runtime = useHostRuntime();
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      const auth = runtime.auth.getState();
      if (auth.session && auth.isSessionTimedOut()) void revalidate();
    }, SESSION_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [runtime, revalidate]);
  useEffect(() => {
    let last = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - last < 10_000) return;
      last = now;
      const auth = runtime.auth.getState();
      if (auth.session && !auth.isSessionTimedOut(now)) auth.touch(now);
    };
    window.addEventListener('pointerdown', onActivity, { passive: true });
    window.addEventListener('keydown', onActivity, { passive: true });
    return () => {
      window.removeEventListener('pointerdown', onActivity);
      window.removeEventListener('keydown', onActivity);
    };
  }, [runtime]);
}

/**
 * The carrier's idle timeout (settings: login / session-timeout, minutes), read once signed in.
 * The spec's 'Unauthorized request' answer sets it to 0, i.e. no timeout; so does any failure.
 */
export function useSessionTimeoutSetting() {
  const runtime = useHostRuntime();
  const token = useRuntimeStore(
    (r) => r.auth,
    (s) => s.session?.accessToken ?? null,
  );
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    fetch('/api/v2/settings/get_setting_value', {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', ...runtime.requestHeaders() },
      body: JSON.stringify({ section: 'login', option: 'session-timeout' }),
    })
      .then(async (response) => (response.ok ? ((await response.json()) as { data?: unknown }).data : 0))
      .then((minutes) => runtime.auth.getState().setSessionTimeoutMinutes(Number(minutes) || 0))
      .catch(() => {
        if (!controller.signal.aborted) runtime.auth.getState().setSessionTimeoutMinutes(0);
      });
    return () => controller.abort();
  }, [runtime, token]);
}
