import './strict-csp.js';
import '@mantine/core/styles.css';
import '@atrium/sdk/ui.css';
import './host.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from './host-app.js';
import { createHostPlugin } from './host-plugin.js';
import { createHostRouter } from './host-router.js';
import { createHostRuntime } from './host-runtime.js';
import { installedPluginManifests } from './installed-plugins.js';
import { loginRoute } from './routing/host-route-refs.js';

const root = createRoot(document.getElementById('root')!);

/** Resolves in a task of its own: the work after it does not lengthen the task before it. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  const plugins = installedPluginManifests();
  const identityHasLogin = plugins.some((p) =>
    p.routes.some((r) => r.name === loginRoute.name || r.path === loginRoute.path),
  );
  const runtime = createHostRuntime({
    manifests: [createHostPlugin({ withLoginPlaceholder: !identityHasLogin }), ...plugins],
  });
  // The router (every route matched and ranked, the guard asking for the session) is the next task.
  await nextTask();
  const router = createHostRouter(runtime);
  // As a transition the first render yields to the browser every few milliseconds instead of
  // holding the main thread for the whole shell (issue 13: Lighthouse's Total Blocking Time). The
  // page has nothing to show until it commits anyway: the HTML's boot bar stays until then.
  startTransition(() => {
    root.render(
      <StrictMode>
        <HostApp runtime={runtime} router={router} />
      </StrictMode>,
    );
  });
}

function showStartFailure(error: unknown) {
  // An invalid manifest (bad layout, clashing route) stops the start; say which instead of a blank page.
  console.error(error);
  const pre = document.createElement('pre');
  pre.setAttribute('role', 'alert');
  pre.style.cssText = 'padding:24px;white-space:pre-wrap;font:14px system-ui';
  pre.textContent = `Atrium could not start:\n${(error as Error).message}`;
  document.getElementById('root')!.replaceChildren(pre);
}

// Evaluating the startup chunk's modules is one task; starting the app (manifests and runtime, then
// the router, whose guard asks for the session) are the next ones, so none holds the main thread as
// long as all did (issue 13: each task's time past 50 ms counts in Total Blocking Time).
void nextTask().then(start).catch(showStartFailure);
