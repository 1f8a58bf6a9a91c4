import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may do what with quotes. Underwriters hold `quote:*` through the access module's
 * "Underwriting" system policy; agents and agencies hold read, create and update ("Agent area") and
 * the grants below add rating, submitting and binding. `underwrite` (clear underwriting issues,
 * approve or decline a quote in review) is the underwriter's. Agents and agencies see only their own
 * and their agency's quotes (server/quote-scope.ts).
 */
export const quotePermissions = definePermissions('quote', {
  grantVersion: 1,
  module: 'the Quote module',
  resources: {
    quote: {
      actions: {
        read: 'List and read quotes, their risks, flow, rules and alerts.',
        create: 'Create quotes.',
        update: 'Change quotes, their risks and items, billing and payment methods.',
        delete: 'Discard quotes.',
        rate: 'Rate quotes.',
        submit: 'Submit quotes for review.',
        bind: 'Bind approved quotes into policies.',
        underwrite: 'Clear underwriting issues and approve or decline quotes in review.',
      },
    },
    settings: {
      actions: {
        administer: 'Read and change the Quote module’s settings (days after which open quotes are abandoned).',
      },
    },
  },
  grants: {
    Underwriter: {
      quote: ['read', 'create', 'update', 'delete', 'rate', 'submit', 'bind', 'underwrite'],
    },
    Agent: { quote: ['read', 'create', 'update', 'delete', 'rate', 'submit', 'bind'] },
    Agency: { quote: ['read', 'create', 'update', 'delete', 'rate', 'submit', 'bind'] },
  },
});

export const can = quotePermissions.can;
