import { definePermissions } from '@atrium/sdk/server';

/**
 * The Settings module is the administrators' (their policy allows everything; the agent areas deny
 * `settings:*` and `ui:settings` outright). Reading the carrier settings is granted to no other role
 * by default: the values every user needs (carrier name, prefixes, live status) come from the core's
 * public and signed-in calls.
 */
export const settingsPermissions = definePermissions('settings', {
  grantVersion: 1,
  module: 'the Settings module',
  resources: {
    carrier: {
      actions: {
        read: 'Read the carrier settings (name, website, logo, prefixes, live status, product slug).',
        update: 'Change the carrier settings.',
      },
    },
    'mass-deliverable': {
      actions: {
        read: 'Read how mass deliverables (declarations, notices, invoices) are sent per state.',
        update: 'Change how mass deliverables are sent per state.',
      },
    },
  },
  grants: {},
});
