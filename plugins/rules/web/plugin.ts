import IconGavel from '@tabler/icons-react/icons/IconGavel';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { rulesComponentRoute, rulesProjectsRoute } from './routes.js';

/**
 * The Rules module's screens of slice (a): the projects with their effective dates and components,
 * and a component's text (read-only). The editor comes with slice (b). See docs/rules.md.
 */
export default definePlugin({
  id: 'rules',
  title: 'Rules',
  moduleKey: 'rules',
  routes: [
    {
      name: rulesProjectsRoute.name,
      path: rulesProjectsRoute.path,
      meta: { layout: 'default', title: 'Rules' },
      loader: () => import('./pages/projects-page.js'),
    },
    {
      name: rulesComponentRoute.name,
      path: rulesComponentRoute.path,
      meta: { layout: 'default', title: 'Rule component' },
      loader: () => import('./pages/component-page.js'),
    },
  ],
  nav: [
    {
      id: 'rules.nav',
      title: 'Rules',
      to: rulesProjectsRoute,
      area: 'main',
      order: 320,
      icon: IconGavel,
      command: 'rules.open',
    },
  ],
  commands: [
    defineCommand({
      id: 'rules.open',
      title: 'Open Rules',
      group: 'Rules',
      keywords: ['rules', 'projects', 'ui controls', 'underwriting'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(rulesProjectsRoute.link({})),
    }),
  ],
  shortcuts: [{ key: 'g r', command: 'rules.open', description: 'Go to Rules', when: '!modalOpen' }],
});
