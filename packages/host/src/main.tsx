import './strict-csp.js';
import '@mantine/core/styles.css';
import '@atrium/sdk/ui.css';
import './host.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from './host-app.js';
import { createHostPlugin } from './host-plugin.js';
import { createHostRouter } from './host-router.js';
import { createHostRuntime } from './host-runtime.js';
import { installedPluginManifests } from './installed-plugins.js';
import { loginRoute } from './routing/host-route-refs.js';

const root = createRoot(document.getElementById('root')!);

try {
  const plugins = installedPluginManifests();
  const identityHasLogin = plugins.some((p) =>
    p.routes.some((r) => r.name === loginRoute.name || r.path === loginRoute.path),
  );
  const runtime = createHostRuntime({
    manifests: [createHostPlugin({ withLoginPlaceholder: !identityHasLogin }), ...plugins],
  });
  const router = createHostRouter(runtime);
  root.render(
    <StrictMode>
      <HostApp runtime={runtime} router={router} />
    </StrictMode>,
  );
} catch (error) {
  // An invalid manifest (bad layout, clashing route) stops the start; say which instead of a blank page.
  console.error(error);
  const pre = document.createElement('pre');
  pre.setAttribute('role', 'alert');
  pre.style.cssText = 'padding:24px;white-space:pre-wrap;font:14px system-ui';
  pre.textContent = `Atrium could not start:\n${(error as Error).message}`;
  document.getElementById('root')!.replaceChildren(pre);
}
