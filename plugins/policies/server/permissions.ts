import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may do what in Policies. Underwriters hold `policies:*` through the access module's
 * "Underwriting" system policy; claims handlers, authors, agents and agencies read (`policies:*`
 * read), agents and agencies only the policies of their own book (record scope by their contact
 * id, applied by this module on every read). The grants below say the same for the roles that
 * work policies, so that a custom copy of a role keeps them.
 */
export const policiesPermissions = definePermissions('policies', {
  grantVersion: 1,
  module: 'the Policies module',
  resources: {
    policy: {
      actions: {
        read: 'Search and read policies, their terms, revisions, contacts and risk data.',
        update: 'Change a policy outside a transaction (cancellation pending notices, linked policies).',
      },
    },
    transaction: {
      actions: {
        read: 'Read the transactions of policies and compare their revisions.',
        endorse: 'Endorse policies (also out of sequence).',
        cancel: 'Cancel policies.',
        reinstate: 'Reinstate cancelled policies.',
        renew: 'Renew policies and retry failed renewals.',
        dismiss: 'Dismiss a failed transaction with a reason.',
      },
    },
    billing: {
      actions: { read: 'Read billing schedules, installments, invoices, payments and balances.' },
    },
    lookup: {
      actions: {
        read: 'Read policy types and statuses.',
        create: 'Create policy types and statuses.',
        update: 'Change policy types and statuses.',
        delete: 'Delete policy types and statuses.',
      },
    },
  },
  grants: {
    Underwriter: {
      policy: ['read', 'update'],
      transaction: ['read', 'endorse', 'cancel', 'reinstate', 'renew', 'dismiss'],
      billing: ['read'],
      lookup: ['read', 'create', 'update', 'delete'],
    },
    'Claims Adjuster': { policy: ['read'], transaction: ['read'], billing: ['read'], lookup: ['read'] },
    Agent: { policy: ['read'], transaction: ['read'], billing: ['read'], lookup: ['read'] },
    Agency: { policy: ['read'], transaction: ['read'], billing: ['read'], lookup: ['read'] },
  },
});

export const can = policiesPermissions.can;
