import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may register third-party UI plugins. Only Administrators hold these by default (they hold
 * `*`): a plugin runs inside every user's screens, so adding one is an administrator's decision.
 */
export const uiPluginsPermissions = definePermissions('ui-plugins', {
  grantVersion: 1,
  module: 'third-party UI plugins',
  resources: {
    plugin: {
      actions: {
        read: 'List the registered UI plugins and their configuration.',
        create: 'Register UI plugins and upload their files.',
        update: 'Change, enable and disable UI plugins, and replace their files.',
        delete: 'Remove UI plugins.',
      },
    },
  },
  grants: {},
});

export const can = uiPluginsPermissions.can;
