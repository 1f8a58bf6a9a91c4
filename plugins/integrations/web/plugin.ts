import IconAlertTriangle from '@tabler/icons-react/icons/IconAlertTriangle';
import { defineCommand, definePlugin, type PluginRoute } from '@atrium/sdk';
import {
  dashboardRoute,
  editMappingRoute,
  eventsRoute,
  exceptionsRoute,
  integrationRoute,
  integrationsRoute,
  newIntegrationRoute,
  mappingsRoute,
  newMappingRoute,
  subscriptionMessagesRoute,
  subscriptionsRoute,
} from './routes.js';

/**
 * The Integrations module's web half (docs/integrations.md): dashboard, events, subscriptions with
 * their message log, the exceptions queue and the data mappings (Monaco editor with live preview). Integrations is not in the top navigation (spec): its
 * pages are reached from the palette, the chord `g i` and its own sub-sidebar. `moduleKey` ties them
 * to `ui:integrations`, which only Administrators hold by default.
 */
const page = (ref: { name: string; path: string }, title: string, loader: PluginRoute['loader']): PluginRoute => ({
  name: ref.name,
  path: ref.path,
  meta: { layout: 'default', title },
  loader,
});

const open = (id: string, title: string, keywords: string[], to: () => string) =>
  defineCommand({
    id,
    title,
    group: 'Integrations',
    keywords,
    when: 'host.signedIn',
    run: (_args, { services }) => services.navigate(to()),
  });

export default definePlugin({
  id: 'integrations',
  title: 'Integrations',
  moduleKey: 'integrations',
  routes: [
    page(dashboardRoute, 'Integrations', () => import('./pages/dashboard-page.js')),
    page(eventsRoute, 'Events', () => import('./pages/events-page.js')),
    page(subscriptionsRoute, 'Subscriptions', () => import('./pages/subscriptions-page.js')),
    page(subscriptionMessagesRoute, 'Subscription messages', () => import('./pages/subscription-messages-page.js')),
    page(exceptionsRoute, 'Exceptions', () => import('./pages/exceptions-page.js')),
    page(mappingsRoute, 'Data mappings', () => import('./pages/mappings-page.js')),
    page(newMappingRoute, 'New data mapping', () =>
      import('./pages/mapping-page.js').then((m) => ({ default: m.NewMappingPage })),
    ),
    page(editMappingRoute, 'Data mapping', () => import('./pages/mapping-page.js')),
    page(integrationsRoute, 'Integrations', () => import('./pages/integrations-page.js')),
    page(newIntegrationRoute, 'New integration', () =>
      import('./pages/integrations-page.js').then((m) => ({ default: m.NewIntegrationPage })),
    ),
    // Last: the parameter route after every named page under /integrations.
    page(integrationRoute, 'Integration', () =>
      import('./pages/integrations-page.js').then((m) => ({ default: m.IntegrationPage })),
    ),
  ],
  nav: [
    // Not in the navigation (spec): the user menu offers it to whoever may open it.
    { id: 'integrations.menu', title: 'Integrations', to: dashboardRoute, area: 'user-menu', order: 1 },
    {
      id: 'integrations.dashboard',
      title: 'Dashboard',
      to: dashboardRoute,
      area: 'sub',
      order: 1,
      command: 'integrations.open',
    },
    {
      id: 'integrations.events',
      title: 'Events',
      to: eventsRoute,
      area: 'sub',
      order: 2,
      command: 'integrations.events',
    },
    {
      id: 'integrations.subscriptions',
      title: 'Subscriptions',
      to: subscriptionsRoute,
      area: 'sub',
      order: 3,
      command: 'integrations.subscriptions',
    },
    {
      id: 'integrations.exceptions',
      title: 'Exceptions',
      to: exceptionsRoute,
      area: 'sub',
      order: 4,
      command: 'integrations.exceptions',
    },
    {
      id: 'integrations.datamappings',
      title: 'Data mappings',
      to: mappingsRoute,
      area: 'sub',
      order: 5,
      command: 'integrations.datamappings',
    },
    {
      id: 'integrations.list',
      title: 'Integrations',
      to: integrationsRoute,
      area: 'sub',
      order: 6,
      command: 'integrations.list',
    },
  ],
  commands: [
    open('integrations.open', 'Open Integrations', ['integrations', 'dashboard', 'webhooks'], () =>
      dashboardRoute.link({}),
    ),
    open('integrations.events', 'Open Events', ['events', 'outbox', 'topics', 'catalogue', 'schema'], () =>
      eventsRoute.link({}),
    ),
    open('integrations.subscriptions', 'Open Webhook Subscriptions', ['webhooks', 'subscriptions', 'messages'], () =>
      subscriptionsRoute.link({}),
    ),
    open('integrations.exceptions', 'Open Exceptions Queue', ['exceptions', 'failures', 'retry', 'errors'], () =>
      exceptionsRoute.link({}),
    ),
    open('integrations.datamappings', 'Open Data Mappings', ['mappings', 'datamappings', 'jsonata', 'transform'], () =>
      mappingsRoute.link({}),
    ),
    open('integrations.list', 'Open Integrations List', ['integrations', 'runs', 'steps', 'connectors'], () =>
      integrationsRoute.link({}),
    ),
  ],
  shortcuts: [{ key: 'g i', command: 'integrations.open', description: 'Go to Integrations', when: '!modalOpen' }],
  myWork: [
    {
      id: 'integrations.open-exceptions',
      title: 'Open exceptions',
      order: 50,
      icon: IconAlertTriangle,
      // The exceptions list's own question.
      access: { resource: 'integrations:exception', action: 'read' },
      loader: () => import('./my-work/open-exceptions-widget.js'),
    },
  ],
});
