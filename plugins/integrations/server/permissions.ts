import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may do what in Integrations. Only Administrators hold these by default (they hold `*`): events
 * carry every module's data, and subscriptions send it out of the building. An administrator may
 * grant read to other roles in Access.
 */
export const integrationsPermissions = definePermissions('integrations', {
  grantVersion: 1,
  module: 'the Integrations module',
  resources: {
    event: { actions: { read: 'Browse the events outbox and the topic catalogue with its JSON Schemas.' } },
    subscription: {
      actions: {
        read: 'List webhook subscriptions and their message logs.',
        create: 'Create webhook subscriptions.',
        update: 'Change subscriptions, see and rotate their secrets, resend messages and send test events.',
        delete: 'Delete webhook subscriptions.',
      },
    },
    mapping: {
      actions: {
        read: 'List and read data mappings and their versions.',
        create: 'Create data mappings.',
        update: 'Edit drafts, publish and create new versions of data mappings.',
        delete: 'Remove data mapping versions.',
        execute: 'Run a published data mapping on a payload (POST /api/datamapping/map/).',
      },
    },
    integration: {
      actions: {
        read: 'List integrations, their runs and each run’s steps.',
        create: 'Create integrations.',
        update: 'Change integrations: name, category, the events that start them, and their steps.',
        delete: 'Delete integrations (with their runs).',
        execute: 'Run an integration, and retry a failed step of a run.',
      },
    },
    exception: {
      actions: {
        read: 'See the exceptions queue.',
        update: 'Retry or dismiss exceptions.',
      },
    },
  },
  grants: {},
});

export const can = integrationsPermissions.can;
