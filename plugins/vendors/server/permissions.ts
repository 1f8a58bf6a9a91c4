import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may connect vendors and use them. Only Administrators hold these by default (they hold `*`):
 * a connection acts in the carrier's accounting and e-signature accounts.
 */
export const vendorsPermissions = definePermissions('vendors', {
  grantVersion: 1,
  module: 'the vendor connections (QuickBooks, DocuSign)',
  resources: {
    connection: {
      actions: {
        read: 'See vendor connections: status, environment, last sync and errors.',
        update: 'Set app credentials and environment, connect and disconnect vendors.',
      },
    },
    invoice: {
      actions: {
        read: 'List the invoices sent to QuickBooks for issued policies.',
        update: 'Run the QuickBooks sync now and retry a failed invoice.',
      },
    },
    envelope: {
      actions: {
        read: 'List the DocuSign envelopes sent for quote documents.',
        create: 'Send a quote document for signature through DocuSign.',
      },
    },
  },
  grants: {},
});

export const can = vendorsPermissions.can;
