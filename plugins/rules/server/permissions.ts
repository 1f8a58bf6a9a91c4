import { definePermissions } from '@atrium/sdk/server';

/**
 * What the rules module checks. Authors (Product and Rules Author: `rules:*` in the access module's
 * "Product and rules authoring" system policy) and administrators write; the roles that quote run
 * the deployed rules (`execution` `execute`) — the grants below.
 */
export const rulesPermissions = definePermissions('rules', {
  grantVersion: 1,
  module: 'the Rules module',
  resources: {
    project: {
      actions: {
        read: 'List and read rules projects, effective dates, packages, jobs and commits.',
        create: 'Create rules projects and effective dates.',
        update: 'Change rules projects and effective dates (and their status).',
        delete: 'Delete rules projects.',
      },
    },
    component: {
      actions: {
        read: 'List and read rule components.',
        create: 'Create rule components.',
        update: 'Change rule components, their tags and state.',
        delete: 'Delete rule components.',
      },
    },
    build: {
      actions: {
        validate: 'Validate a rules project.',
        test: 'Run the rule tests of a project.',
        commit: 'Commit a rules project.',
        deploy: 'Deploy a commit of a rules project.',
      },
    },
    execution: {
      actions: { execute: 'Run deployed rules (UI controls, underwriting issues) while quoting.' },
    },
  },
  grants: {
    Underwriter: { execution: ['execute'] },
    Agent: { execution: ['execute'] },
    Agency: { execution: ['execute'] },
  },
});

export const can = rulesPermissions.can;
