import { definePermissions } from '@atrium/sdk/server';

/**
 * Every role files support tickets and reads its own (`create`, `read`); the carrier's staff see
 * the Support Tools and outstanding-tickets pages in the user menu (`ViewModule` on `ui:support`;
 * agents and agencies have no Resources menu, spec). `manage` — every user's tickets, closing any —
 * is the administrators' (their policy allows everything).
 */
const staff = { view: true, ticket: ['create', 'read'] as const };
export const supportPermissions = definePermissions('support', {
  grantVersion: 1,
  module: 'Support Tools and support tickets',
  resources: {
    ticket: {
      actions: {
        create: 'Submit support tickets.',
        read: 'Read and close the support tickets one submitted.',
        manage: "Read and close every user's support tickets.",
      },
    },
  },
  grants: {
    'Claims Adjuster': staff,
    Underwriter: staff,
    'Product and Rules Author': staff,
    Agent: { ticket: ['create', 'read'] },
    Agency: { ticket: ['create', 'read'] },
  },
});
