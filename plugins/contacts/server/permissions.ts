import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may do what in Contacts. Claims handlers and underwriters hold `contacts:*` read, create and
 * update through the access module's system policies; agents and agencies read the contacts of their
 * own book (the "Agent area" / "Agency area" record condition). `read-ssn` (an SSN in full, audited)
 * is held by Administrators only unless a custom policy grants it.
 */
export const contactsPermissions = definePermissions('contacts', {
  grantVersion: 1,
  module: 'the Contacts module',
  resources: {
    contact: {
      actions: {
        read: 'List, search and read contacts.',
        create: 'Create contacts.',
        update: 'Change contacts.',
        delete: 'Delete contacts.',
        'read-ssn': 'See in full (unmasked) the SSNs of contacts.',
        merge: 'Find duplicate contacts and merge one into another.',
      },
    },
    note: {
      actions: {
        read: 'Read the notes of contacts.',
        create: 'Write notes on contacts.',
        update: 'Change notes on contacts.',
        delete: 'Delete notes on contacts.',
      },
    },
    relation: {
      actions: {
        read: 'Read how contacts are related.',
        create: 'Relate contacts.',
        update: 'Change relations of contacts.',
        delete: 'Remove relations of contacts.',
      },
    },
    'quoting-permission': {
      actions: {
        read: 'Read the quoting permissions of producers.',
        create: 'Grant quoting permissions.',
        update: 'Change quoting permissions.',
        delete: 'Revoke quoting permissions.',
      },
    },
  },
  grants: {},
});
