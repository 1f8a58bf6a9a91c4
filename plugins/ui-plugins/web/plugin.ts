import { lazy } from 'react';
import { defineCommand, definePaletteSource, definePlugin, riskEditButtonRowSlot } from '@atrium/sdk';
import { pluginHarnessRoute, pluginsRoute } from './routes.js';

/**
 * Third-party UI plugins, the administrator's screens (docs/third-party-plugins.md): the plugin
 * list and editor. `moduleKey` ties them to `ui:integrations`, which only Administrators hold by
 * default; the server checks `ui-plugins:plugin` on every call.
 */
export default definePlugin({
  id: 'ui-plugins',
  title: 'UI plugins',
  moduleKey: 'integrations',
  routes: [
    {
      name: pluginsRoute.name,
      path: pluginsRoute.path,
      meta: { layout: 'default', title: 'Plugins' },
      loader: () => import('./pages/plugins-page.js'),
    },
    {
      name: pluginHarnessRoute.name,
      path: pluginHarnessRoute.path,
      meta: { layout: 'default', title: 'Plugin harness' },
      loader: () => import('./pages/plugin-harness-page.js'),
    },
  ],
  nav: [
    { id: 'ui-plugins.list', title: 'Plugins', to: pluginsRoute, area: 'sub', order: 20, command: 'ui-plugins.open' },
  ],
  // The runtime: enabled third-party plugins in the quote page's risk button row (loaded on first use).
  slots: [
    {
      slot: riskEditButtonRowSlot,
      id: 'ui-plugins.button-row',
      component: lazy(() => import('./runtime/button-row-slot.js').then((m) => ({ default: m.ButtonRowSlot }))),
    },
  ],
  // Enabled plugins' commands and search results in the palette, under each plugin's name (loaded on
  // the first opening; the records, not the plugins, say what is listed).
  palette: [
    definePaletteSource({
      id: 'ui-plugins.enabled',
      load: (context) => import('./runtime/palette-source.js').then((m) => m.loadPaletteContributions(context)),
    }),
  ],
  commands: [
    defineCommand({
      id: 'ui-plugins.open',
      title: 'Open UI plugins',
      group: 'Integrations',
      keywords: ['plugins', 'third-party', 'extensions'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(pluginsRoute.link({})),
    }),
    defineCommand({
      id: 'ui-plugins.harness',
      title: 'Open the plugin harness',
      group: 'Integrations',
      keywords: ['plugins', 'dev', 'harness', 'preview'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(pluginHarnessRoute.link({})),
    }),
  ],
});
