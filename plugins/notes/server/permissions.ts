import { definePermissions } from '@atrium/sdk/server';

/**
 * What the notes module checks. The access module's system policies give carrier staff
 * `notes:*` read, create and update and `ViewModule` on `ui:notes`; deleting a note is granted
 * here. Whatever the permission, only a note's author changes or deletes it (notes-routes.ts).
 */
export const notesPermissions = definePermissions('notes', {
  grantVersion: 1,
  module: 'the Notes module',
  resources: {
    note: {
      actions: {
        read: 'Read the notes on records and the notes list.',
        create: 'Write notes on records.',
        update: 'Change the notes one wrote.',
        delete: 'Delete the notes one wrote.',
      },
    },
  },
  grants: {
    'Claims Adjuster': { note: ['delete'] },
    Underwriter: { note: ['delete'] },
    'Product and Rules Author': { note: ['delete'] },
  },
});
