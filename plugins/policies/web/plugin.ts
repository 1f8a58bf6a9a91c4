import IconFileCertificate from '@tabler/icons-react/icons/IconFileCertificate';
import IconRefreshAlert from '@tabler/icons-react/icons/IconRefreshAlert';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { policyQuickSearch } from './policy-quick-search.js';
import { failedRenewalsRoute, policiesPageRoute, policyInformationRoute, policyPageRoute } from './routes.js';

/** The policy open on screen (policy-page.tsx sets `policies.policyOpen`) gets the action in its URL. */
const onOpenPolicy = (action: string) => () => {
  const url = new URL(window.location.href);
  url.searchParams.set('action', action);
  return `${url.pathname}${url.search}`;
};

/**
 * The Policies module's web half: the policy search (/policies), the policy information screen
 * (agents' /policies/policy/{id}; the shell sends /{product}/policies/information?policyId={id} to
 * /policies/{id}, the same screen), failed
 * renewals, the `g p` Policy quick search and the palette commands (open policy, endorse, cancel,
 * reinstate, renew, compare revisions).
 */
export default definePlugin({
  id: 'policies',
  title: 'Policies',
  moduleKey: 'policies',
  routes: [
    {
      name: policiesPageRoute.name,
      path: policiesPageRoute.path,
      meta: { layout: 'default', title: 'Policies' },
      loader: () => import('./pages/policies-page.js'),
    },
    {
      name: policyPageRoute.name,
      path: policyPageRoute.path,
      meta: { layout: 'default', title: 'Policy' },
      loader: () => import('./pages/policy-page.js'),
    },
    {
      name: policyInformationRoute.name,
      path: policyInformationRoute.path,
      meta: { layout: 'default', title: 'Policy' },
      loader: () => import('./pages/policy-page.js'),
    },
    {
      name: failedRenewalsRoute.name,
      path: failedRenewalsRoute.path,
      meta: { layout: 'default', title: 'Failed renewals' },
      loader: () => import('./pages/failed-renewals-page.js'),
    },
  ],
  nav: [
    {
      id: 'policies.nav',
      title: 'Policies',
      to: policiesPageRoute,
      area: 'main',
      order: 120,
      icon: IconFileCertificate,
      command: 'policies.open',
    },
    { id: 'policies.search', title: 'Policy search', to: policiesPageRoute, area: 'sub', order: 1 },
    { id: 'policies.failed-renewals', title: 'Failed renewals', to: failedRenewalsRoute, area: 'sub', order: 2 },
    {
      id: 'policies.agent',
      title: 'Policies and Quotes',
      to: policiesPageRoute,
      area: 'agent',
      order: 2,
      icon: IconFileCertificate,
    },
  ],
  commands: [
    defineCommand({
      id: 'policies.open',
      title: 'Open Policies',
      group: 'Policies',
      keywords: ['policies', 'policy search', 'insured'],
      run: (_args, { services }) => services.navigate(policiesPageRoute.link({})),
    }),
    defineCommand({
      id: 'policies.openPolicy',
      title: 'Open Policy…',
      group: 'Policies',
      keywords: ['policy', 'number', 'primary insured', 'quick search'],
      run: (_args, { services }) => services.openQuickSearchForType('Policy'),
    }),
    defineCommand({
      id: 'policies.failedRenewals',
      title: 'Open Failed Renewals',
      group: 'Policies',
      keywords: ['renewal', 'failed', 'retry'],
      run: (_args, { services }) => services.navigate(failedRenewalsRoute.link({})),
    }),
    ...(
      [
        ['endorse', 'Endorse Policy', ['endorsement', 'change', 'mid-term']],
        ['cancel', 'Cancel Policy', ['cancellation', 'short rate', 'pro rata', 'flat']],
        ['reinstate', 'Reinstate Policy', ['reinstatement']],
        ['renew', 'Renew Policy', ['renewal', 'new term']],
        ['compare', 'Compare Policy Revisions', ['premium', 'explain', 'difference', 'revision']],
      ] as const
    ).map(([action, title, keywords]) =>
      defineCommand({
        id: `policies.${action}`,
        title,
        group: 'Policies',
        keywords: [...keywords],
        when: 'policies.policyOpen',
        run: (_args, { services }) => services.navigate(onOpenPolicy(action)()),
      }),
    ),
  ],
  quickSearch: [policyQuickSearch],
  myWork: [
    {
      id: 'policies.renewing-next',
      title: 'Policies renewing next',
      order: 35,
      icon: IconFileCertificate,
      // An agent's or agency's own book (the record scope); staff see every policy, which is not their work list.
      when: 'role == "Agent" || role == "Agency"',
      access: { resource: 'policies:policy', action: 'read' },
      loader: () => import('./my-work/renewing-next-widget.js'),
    },
    {
      id: 'policies.failed-renewals',
      title: 'Failed renewals',
      order: 40,
      icon: IconRefreshAlert,
      // For those who retry them (the page's Retry asks this); they read the list with transaction read too.
      access: { resource: 'policies:transaction', action: 'renew' },
      loader: () => import('./my-work/failed-renewals-widget.js'),
    },
  ],
});
