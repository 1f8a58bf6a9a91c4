import { defineCommand, definePlugin } from '@atrium/sdk';
import { integrationsPageRoute } from './routes.js';

/**
 * The Integrations module's web half: its page, a sidebar link, a command that opens the page and the
 * chord `g i` bound to that command. `moduleKey` ties all of them to `ui:integrations`: roles
 * without it see none of them.
 */
export default definePlugin({
  id: 'integrations',
  title: 'Integrations',
  moduleKey: 'integrations',
  routes: [
    {
      name: integrationsPageRoute.name,
      path: integrationsPageRoute.path,
      meta: { layout: 'default', title: 'Integrations' },
      loader: () => import('./pages/integrations-page.js'),
    },
  ],
  nav: [
    {
      id: 'integrations.nav',
      title: 'Integrations',
      to: integrationsPageRoute,
      area: 'main',
      order: 900,
      command: 'integrations.open',
    },
  ],
  commands: [
    defineCommand({
      id: 'integrations.open',
      title: 'Open Integrations',
      group: 'Integrations',
      keywords: ['integrations', 'entries'],
      run: (_args, { services }) => services.navigate(integrationsPageRoute.link({})),
    }),
  ],
  shortcuts: [{ key: 'g i', command: 'integrations.open', description: 'Go to Integrations', when: '!modalOpen' }],
});
