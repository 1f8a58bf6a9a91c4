import { defineCommand, definePlugin } from '@atrium/sdk';
import { documentsPageRoute } from './routes.js';

/**
 * The Documents module's web half: its page, a sidebar link, a command that opens the page and the
 * chord `g d` bound to that command. `moduleKey` ties all of them to `ui:documents`: roles
 * without it see none of them.
 */
export default definePlugin({
  id: 'documents',
  title: 'Documents',
  moduleKey: 'documents',
  routes: [
    {
      name: documentsPageRoute.name,
      path: documentsPageRoute.path,
      meta: { layout: 'default', title: 'Documents' },
      loader: () => import('./pages/documents-page.js'),
    },
  ],
  nav: [
    {
      id: 'documents.nav',
      title: 'Documents',
      to: documentsPageRoute,
      area: 'main',
      order: 900,
      command: 'documents.open',
    },
  ],
  commands: [
    defineCommand({
      id: 'documents.open',
      title: 'Open Documents',
      group: 'Documents',
      keywords: ['documents', 'entries'],
      run: (_args, { services }) => services.navigate(documentsPageRoute.link({})),
    }),
  ],
  shortcuts: [{ key: 'g d', command: 'documents.open', description: 'Go to Documents', when: '!modalOpen' }],
});
