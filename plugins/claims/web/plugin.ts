import IconActivity from '@tabler/icons-react/icons/IconActivity';
import IconMail from '@tabler/icons-react/icons/IconMail';
import IconCash from '@tabler/icons-react/icons/IconCash';
import IconShieldCheck from '@tabler/icons-react/icons/IconShieldCheck';
import { defineCommand, definePlugin, type PluginRoute } from '@atrium/sdk';
import { claimQuickSearch } from './claim-quick-search.js';
import { openClaim } from './open-claim.js';
import {
  CLAIM_WORKSPACE_ROUTES,
  claimsAccountingRoute,
  claimsAdminImportHistoricalClaimsRoute,
  claimsAdminManualItemsRoute,
  claimsAdminMockPoliciesRoute,
  claimsAdminPaymentProcessingRoute,
  claimsAdminPerilsRoute,
  claimsAdminProductsRoute,
  claimsAdminSetupRoute,
  claimsAdminTagsRoute,
  claimsAssignRoute,
  claimsAttachmentsRoute,
  claimsDashboardRoute,
  claimsExposureDetailsRoute,
  claimsExposuresRoute,
  claimsFnolRoute,
  claimsInjurySummaryRoute,
  claimsLossDetailRoute,
  claimsPartiesRoute,
  claimsRiskTypesRoute,
} from './routes.js';

/**
 * The Claims module's screens: the dashboard (my claims, pending claims), the FNOL wizard, the
 * claim workspace (Details, Exposures, Accounting, Parties, Attachments, Injuries, risk type
 * groups), the assign-claims area and the admin setup modules. Shown when the effective role may
 * `ViewModule` on `ui:claims`; actions inside are shown only when `useCan` allows them, and the
 * claims service checks every call again. See docs/claims-screens.md.
 */
const page = (
  ref: { name: string; path: string },
  title: string,
  loader: PluginRoute['loader'],
  permission?: { resource: string; action: string },
): PluginRoute => ({
  name: ref.name,
  path: ref.path,
  meta: { layout: 'default', title, ...(permission ? { permission } : {}) },
  loader,
});
/** Assign claims is for those who may assign; admin setup for those who may read its lookups (not agents). */
const ASSIGN = { resource: 'claims:claim', action: 'assign' };
const SETUP = { resource: 'claims:lookup', action: 'read' };
const workspace = () => import('./pages/claim-workspace-page.js');

/** Commands that act on the open claim are offered only on its workspace routes. */
export const ON_CLAIM_WORKSPACE = CLAIM_WORKSPACE_ROUTES.map((r) => `route == "${r.name}"`).join(' || ');

export default definePlugin({
  id: 'claims',
  title: 'Claims',
  moduleKey: 'claims',
  routes: [
    page(claimsDashboardRoute, 'Claims', () => import('./pages/dashboard-page.js')),
    page(claimsFnolRoute, 'New FNOL', () => import('./pages/fnol-page.js')),
    page(claimsAssignRoute, 'Assign claims', () => import('./pages/assign-claims-page.js'), ASSIGN),
    page(claimsAdminSetupRoute, 'Claims admin setup', () => import('./admin/admin-setup-page.js'), SETUP),
    page(
      claimsAdminMockPoliciesRoute,
      'Mock Policies Maintenance',
      () => import('./admin/mock-policies-page.js'),
      SETUP,
    ),
    page(claimsAdminPerilsRoute, 'Perils', () => import('./admin/perils-page.js'), SETUP),
    page(claimsAdminTagsRoute, 'Tag Maintenance', () => import('./admin/tags-page.js'), SETUP),
    page(claimsAdminProductsRoute, 'Products Maintenance', () => import('./admin/products-page.js'), SETUP),
    page(
      claimsAdminPaymentProcessingRoute,
      'Payment Processing',
      () => import('./admin/payment-processing-page.js'),
      SETUP,
    ),
    page(claimsAdminManualItemsRoute, 'Manual Items', () => import('./admin/manual-items-page.js'), SETUP),
    page(
      claimsAdminImportHistoricalClaimsRoute,
      'Import Historical Claims',
      () => import('./admin/import-historical-claims-page.js'),
      SETUP,
    ),
    page(claimsLossDetailRoute, 'Claim details', workspace),
    page(claimsExposuresRoute, 'Claim exposures', workspace),
    page(claimsExposureDetailsRoute, 'Exposure', workspace),
    page(claimsAccountingRoute, 'Claim accounting', workspace),
    page(claimsPartiesRoute, 'Claim parties', workspace),
    page(claimsAttachmentsRoute, 'Claim attachments', workspace),
    page(claimsInjurySummaryRoute, 'Claim injuries', workspace),
    page(claimsRiskTypesRoute, 'Claim risks', workspace),
  ],
  nav: [
    { id: 'claims.nav', title: 'Claims', to: claimsDashboardRoute, area: 'main', order: 40, icon: IconShieldCheck },
    { id: 'claims.agent', title: 'Claims', to: claimsDashboardRoute, area: 'agent', order: 3, icon: IconShieldCheck },
    {
      id: 'claims.dashboard',
      title: 'Dashboard',
      to: claimsDashboardRoute,
      area: 'sub',
      order: 1,
    },
    {
      id: 'claims.fnol',
      title: 'New FNOL',
      to: claimsFnolRoute,
      area: 'sub',
      order: 2,
      command: 'claims.newFnol',
    },
    {
      id: 'claims.assign',
      title: 'Assign claims',
      to: claimsAssignRoute,
      area: 'sub',
      order: 3,
      command: 'claims.assign',
    },
    {
      id: 'claims.admin-setup',
      title: 'Admin setup',
      to: claimsAdminSetupRoute,
      area: 'sub',
      order: 4,
    },
  ],
  commands: [
    defineCommand({
      id: 'claims.newFnol',
      title: 'New FNOL',
      group: 'Claims',
      keywords: ['claim', 'fnol', 'first notice of loss', 'report', 'new'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(claimsFnolRoute.link({})),
    }),
    defineCommand({
      id: 'claims.openClaim',
      title: 'Open Claim by Number',
      group: 'Claims',
      keywords: ['claim', 'open', 'number', 'find'],
      when: 'host.signedIn',
      args: () => import('./command-args.js').then((m) => m.openClaimArgs),
      run: (args, { services }) => {
        // From the palette (no number) the Claim quick search asks for it.
        if (args?.number) services.navigate(claimsLossDetailRoute.link({ claimNumber: args.number }));
        else services.openQuickSearch(claimQuickSearch.id);
      },
    }),
    defineCommand({
      id: 'claims.assign',
      title: 'Assign Claims',
      group: 'Claims',
      keywords: ['claim', 'assign', 'adjuster', 'pending'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(claimsAssignRoute.link({})),
    }),
    defineCommand({
      id: 'claims.runPaymentBatch',
      title: 'Run payment batch',
      group: 'Claims',
      keywords: ['payment', 'batch', 'issue', 'checks', 'processing', 'finance'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(claimsAdminPaymentProcessingRoute.link({}, { action: 'run' })),
    }),
    defineCommand({
      id: 'claims.manualItems',
      title: 'Manual Items',
      group: 'Claims',
      keywords: ['manual', 'item', 'limit', 'admin', 'setup'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(claimsAdminManualItemsRoute.link({})),
    }),
    defineCommand({
      id: 'claims.addReserve',
      title: 'Add Reserve',
      group: 'Claims',
      keywords: ['reserve', 'accounting', 'claim'],
      when: ON_CLAIM_WORKSPACE,
      run: (_args, { services }) => {
        const number = openClaim();
        if (number) services.navigate(claimsAccountingRoute.link({ claimNumber: number }, { action: 'reserve' }));
      },
    }),
    defineCommand({
      id: 'claims.addPayment',
      title: 'Add Payment',
      group: 'Claims',
      keywords: ['payment', 'pay', 'accounting', 'claim'],
      when: ON_CLAIM_WORKSPACE,
      run: (_args, { services }) => {
        const number = openClaim();
        if (number) services.navigate(claimsAccountingRoute.link({ claimNumber: number }, { action: 'payment' }));
      },
    }),
    defineCommand({
      id: 'claims.addRecovery',
      title: 'Add Recovery',
      group: 'Claims',
      keywords: ['recovery', 'salvage', 'subrogation', 'accounting', 'claim'],
      when: ON_CLAIM_WORKSPACE,
      run: (_args, { services }) => {
        const number = openClaim();
        if (number) services.navigate(claimsAccountingRoute.link({ claimNumber: number }, { action: 'recovery' }));
      },
    }),
  ],
  quickSearch: [claimQuickSearch],
  myWork: [
    {
      id: 'claims.my-open-claims',
      title: 'My open claims',
      order: 10,
      icon: IconShieldCheck,
      // Agents and agencies report claims but are never their adjuster.
      when: 'role != "Agent" && role != "Agency"',
      access: { resource: 'claims:claim', action: 'read' },
      loader: () => import('./my-work/my-open-claims-widget.js'),
    },
    {
      id: 'claims.payments-awaiting-approval',
      title: 'Payments awaiting approval',
      order: 20,
      icon: IconCash,
      // Only for roles that may approve: the question the approve route asks first.
      access: { resource: 'claims:transaction', action: 'approve' },
      loader: () => import('./my-work/payments-awaiting-approval-widget.js'),
    },
  ],
  activityPanels: [
    {
      id: 'claims-activity',
      title: 'Claims activity',
      order: 2,
      icon: IconActivity,
      loader: () => import('./panels/claims-activity-panel.js'),
    },
    {
      // Spec: activity sidebar modules notes, claims activity, claim outbound email. Shown while a
      // claim is open (its workspace routes), since every mail belongs to one claim.
      id: 'claim-outbound-email',
      title: 'Claim Outbound Email',
      order: 3,
      icon: IconMail,
      when: ON_CLAIM_WORKSPACE,
      loader: () => import('./panels/claim-outbound-email-panel.js'),
    },
  ],
});
