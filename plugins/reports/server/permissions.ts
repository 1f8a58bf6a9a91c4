import { definePermissions } from '@atrium/sdk/server';

/**
 * Reports (docs/reports.md). `report` read runs the reports and exports them; `payment` read lists
 * the invoices and payments of the caller's policies (the agent portal's Payments page). What the
 * figures cover is the caller's own scope, decided by claims and policies (their reporting
 * services): the grants here only open the door. The access module's system policies grant
 * `reports:*` read to every carrier role and to agents and agencies ("Agent area").
 */
const reader = { view: true, report: ['read'] as const, payment: ['read'] as const };
export const reportsPermissions = definePermissions('reports', {
  grantVersion: 1,
  module: 'the Reports module',
  resources: {
    report: { actions: { read: 'Run reports over the records one may read, and export them as CSV or XLSX.' } },
    payment: { actions: { read: "List the invoices and payments received of one's policies." } },
  },
  grants: {
    'Claims Adjuster': reader,
    Underwriter: reader,
    'Product and Rules Author': reader,
    Agent: reader,
    Agency: reader,
  },
});

export const can = reportsPermissions.can;
