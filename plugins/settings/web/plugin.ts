import IconSettings from '@tabler/icons-react/icons/IconSettings';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { settingsPageRoute } from './routes.js';

/** The Settings module's web half: the carrier settings page for administrators (`ui:settings`). */
export default definePlugin({
  id: 'settings',
  title: 'Settings',
  moduleKey: 'settings',
  routes: [
    {
      name: settingsPageRoute.name,
      path: settingsPageRoute.path,
      meta: { layout: 'default', title: 'Settings' },
      loader: () => import('./pages/settings-page.js'),
    },
  ],
  nav: [
    {
      id: 'settings.nav',
      title: 'Settings',
      to: settingsPageRoute,
      area: 'main',
      order: 900,
      icon: IconSettings,
      command: 'settings.open',
    },
  ],
  commands: [
    defineCommand({
      id: 'settings.open',
      title: 'Open Settings',
      group: 'Settings',
      keywords: ['carrier', 'live site', 'prefix', 'logo', 'website', 'product slug'],
      run: (_args, { services }) => services.navigate(settingsPageRoute.link({})),
    }),
  ],
  // `g s`: the module's chord (issue 13), listed in `?`.
  shortcuts: [{ key: 'g s', command: 'settings.open', description: 'Go to Settings', when: '!modalOpen' }],
});
