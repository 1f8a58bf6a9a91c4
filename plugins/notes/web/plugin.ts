import IconNotes from '@tabler/icons-react/icons/IconNotes';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { ON_RECORD_PAGE } from './record-of-route.js';
import { notesGlobalListRoute } from './routes.js';

/**
 * The Notes module's web half: the notes list (notes:global-list) and the activity sidebar's Notes
 * panel on every record page (claims, contacts; policies and quotes once their pages exist). Both
 * belong to `ui:notes`; the server checks `notes:note` on every call.
 */
export default definePlugin({
  id: 'notes',
  title: 'Notes',
  moduleKey: 'notes',
  routes: [
    {
      name: notesGlobalListRoute.name,
      path: notesGlobalListRoute.path,
      meta: { layout: 'default', title: 'Notes' },
      loader: () => import('./pages/notes-page.js'),
    },
  ],
  nav: [
    {
      id: 'notes.nav',
      title: 'Notes',
      to: notesGlobalListRoute,
      area: 'main',
      order: 170,
      icon: IconNotes,
      command: 'notes.open',
    },
  ],
  commands: [
    defineCommand({
      id: 'notes.open',
      title: 'Open Notes',
      group: 'Notes',
      keywords: ['notes', 'mentions', 'comments'],
      run: (_args, { services }) => services.navigate(notesGlobalListRoute.link({})),
    }),
  ],
  activityPanels: [
    {
      // The id the host's unsaved-changes warning is tied to (spec: activity sidebar modules).
      id: 'notes',
      title: 'Notes',
      order: 1,
      icon: IconNotes,
      when: ON_RECORD_PAGE,
      loader: () => import('./panels/notes-panel.js'),
    },
  ],
});
