import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';
import { NOTES_EVENTS } from './events.js';
import { notesRoutes } from './notes-routes.js';
import { notesPermissions } from './permissions.js';

/**
 * The notes module (docs/notes.md): notes on any record by (record type, record id), the users a
 * note names, and the caller's notes list. Plain JSON under /api/notes.
 */
export default defineServerPlugin({
  id: 'notes',
  title: 'Notes',
  // Authors' and named users' names come from identity.
  deps: [USER_DIRECTORY],
  dbSchema: 'notes',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: notesPermissions,
  events: NOTES_EVENTS,
  routes(router, context) {
    notesRoutes(router, context);
  },
});
