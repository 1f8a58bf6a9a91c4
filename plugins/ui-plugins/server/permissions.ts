import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may register third-party UI plugins. Only Administrators hold these by default (they hold
 * `*`): a plugin runs inside every user's screens, so adding one is an administrator's decision.
 */
export const uiPluginsPermissions = definePermissions('ui-plugins', {
  grantVersion: 2,
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
    'enabled-plugin': {
      actions: {
        read: 'Load the enabled UI plugins into the slots of the screens one works in.',
      },
    },
  },
  // Every role loads the plugins an administrator enabled (they run with the user's own rights).
  grants: {
    'Claims Adjuster': { 'enabled-plugin': ['read'] },
    Underwriter: { 'enabled-plugin': ['read'] },
    'Product and Rules Author': { 'enabled-plugin': ['read'] },
    Agent: { 'enabled-plugin': ['read'] },
    Agency: { 'enabled-plugin': ['read'] },
  },
});

export const can = uiPluginsPermissions.can;
