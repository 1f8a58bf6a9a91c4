// @vitest-environment jsdom
import { createRouteRef, definePlugin } from '@atrium/sdk';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderHost, sessionFor } from '../testing/render-host.js';
import { UNSAVED_NOTES_WARNING } from './activity-sidebar-state.js';

const claimsRoute = createRouteRef({ name: 'claims:dashboard', path: '/claims' });
const rulesRoute = createRouteRef({ name: 'rules:list', path: '/rules' });
const publicRoute = createRouteRef({ name: 'guide:page', path: '/guide' });
const quoteRoute = createRouteRef({ name: 'quote:create-quote', path: '/quote/create' });
const integrationsRoute = createRouteRef({ name: 'integrations:dashboard', path: '/integrations/dashboard' });
const page = (text: string) => async () => ({ default: () => <p>{text}</p> });

const plugins = [
  definePlugin({
    id: 'claims-test',
    title: 'Claims',
    moduleKey: 'claims',
    routes: [
      { name: claimsRoute.name, path: claimsRoute.path, meta: { layout: 'default' }, loader: page('claims page') },
    ],
    nav: [
      { id: 'claims.nav', title: 'Claims', to: claimsRoute, area: 'main', order: 20 },
      { id: 'claims.agent-nav', title: 'Claims', to: claimsRoute, area: 'agent', order: 20 },
    ],
    activityPanels: [{ id: 'notes', title: 'Notes', loader: page('notes panel') }],
  }),
  definePlugin({
    id: 'rules-test',
    title: 'Rules',
    moduleKey: 'rules',
    routes: [{ name: rulesRoute.name, path: rulesRoute.path, meta: { layout: 'default' }, loader: page('rules page') }],
    nav: [{ id: 'rules.nav', title: 'Rules', to: rulesRoute, area: 'main', order: 10 }],
  }),
  definePlugin({
    id: 'quote-test',
    title: 'Quote',
    moduleKey: 'quote',
    routes: [{ name: quoteRoute.name, path: quoteRoute.path, meta: { layout: 'default' }, loader: page('quote page') }],
    nav: [{ id: 'quote.agent-nav', title: 'New Quote', to: quoteRoute, area: 'agent', order: 99 }],
  }),
  definePlugin({
    id: 'integrations-test',
    title: 'Integrations',
    moduleKey: 'integrations',
    routes: [
      {
        name: integrationsRoute.name,
        path: integrationsRoute.path,
        meta: { layout: 'default' },
        loader: page('integrations page'),
      },
    ],
    nav: [{ id: 'integrations.menu', title: 'Integrations', to: integrationsRoute, area: 'user-menu', order: 1 }],
  }),
  definePlugin({
    id: 'guide',
    title: 'Guide',
    routes: [
      {
        name: publicRoute.name,
        path: publicRoute.path,
        meta: { layout: 'default', requiresAuth: false },
        loader: page('guide page'),
      },
    ],
    nav: [{ id: 'guide.nav', title: 'Guide', to: publicRoute, area: 'main', order: 30 }],
  }),
];

const mainLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('layout', () => {
  it('shows Dashboard, the modules the role may view in order, and Get help', async () => {
    renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor(),
      effectiveRole: 'Adjuster',
      viewable: (m) => m !== 'quote',
    });
    await screen.findByText('claims page');
    await waitFor(() => expect(mainLinks()).toEqual(['Dashboard', 'Rules', 'Claims', 'Guide']));
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Get help' }),
    ).toBeTruthy();
  });

  it('hides modules the effective role may not view', async () => {
    renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor(),
      effectiveRole: 'Adjuster',
      viewable: (m) => m === 'claims',
    });
    await screen.findByText('claims page');
    await waitFor(() => expect(mainLinks()).toEqual(['Dashboard', 'Claims', 'Guide']));
  });

  it('shows only public pages to someone who is not signed in', async () => {
    renderHost({ path: '/guide', manifests: plugins });
    await screen.findByText('guide page');
    expect(mainLinks()).toEqual(['Dashboard', 'Guide']);
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it('links the carrier name to its website and shows the logo', async () => {
    renderHost({ path: '/guide', manifests: plugins });
    const link = await screen.findByRole('link', { name: 'Atrium Mutual Insurance website' });
    expect(link.getAttribute('href')).toBe('https://carrier.example.com/');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('does not link the carrier name when there is no website (or an unsafe one)', async () => {
    renderHost({
      path: '/guide',
      manifests: plugins,
      carrier: { name: 'Plain Carrier', website: 'javascript:alert(1)', logo_url: null },
    });
    await screen.findByText('Plain Carrier');
    expect(screen.queryByRole('link', { name: /Plain Carrier/ })).toBeNull();
  });

  it('opens the Help modal with the help site and Submit a Support Ticket', async () => {
    const { user } = renderHost({ path: '/guide', manifests: plugins });
    await screen.findByText('guide page');
    await user.click(screen.getByRole('button', { name: 'Help' }));
    const dialog = await screen.findByRole('dialog', { name: 'Help' });
    expect(within(dialog).getByRole('link', { name: 'help site' }).getAttribute('href')).toMatch(/^https:/);
    expect(within(dialog).getByRole('button', { name: 'Submit a Support Ticket' })).toBeTruthy();
  });

  it('shows the user menu with the role row, My Account, Log out and Resources for carrier staff', async () => {
    const { user } = renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor('Jane Doe'),
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('claims page');
    await user.click(await screen.findByRole('button', { name: /user menu/i }));
    // jsdom has no layout, so the dropdown's positioning reports the anchor as detached and hides
    // it (display: none); its content is still what a user sees, so query hidden nodes too.
    const menu = await screen.findByRole('menu', { hidden: true });
    expect(within(menu).getByText('Jane Doe')).toBeTruthy();
    expect(within(menu).getByText('jane@example.com')).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Adjuster', hidden: true })).toBeTruthy();
    for (const name of ['My Account', 'Log out', 'Help site', 'Community forum']) {
      expect(within(menu).getByRole('menuitem', { name, hidden: true })).toBeTruthy();
    }
    // A module kept out of the navigation offers itself here (nav area 'user-menu'), not in the sidebar.
    expect(within(menu).getByRole('menuitem', { name: 'Integrations', hidden: true }).getAttribute('href')).toBe(
      '/integrations/dashboard',
    );
    expect(mainLinks()).not.toContain('Integrations');
    // Not built yet: hidden rather than a link to "Page not found".
    for (const name of ['Support Tools', 'Outstanding tickets', 'Setup for Demo'])
      expect(within(menu).queryByRole('menuitem', { name, hidden: true })).toBeNull();
    expect(within(menu).getByText('Resources')).toBeTruthy();
  });

  it("says 'Please select a role' when no role is chosen", async () => {
    const { user } = renderHost({ path: '/claims', manifests: plugins, session: sessionFor() });
    await screen.findByText('claims page');
    await user.click(await screen.findByRole('button', { name: /user menu/i }));
    expect(await screen.findByRole('menuitem', { name: 'Please select a role', hidden: true })).toBeTruthy();
  });

  it('gives agents the agent navigation, the agency styling and no Resources menu', async () => {
    const { user, container } = renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor('Al Agent'),
      effectiveRole: 'Independent Agent',
    });
    await screen.findByText('claims page');
    await waitFor(() => expect(mainLinks()).toEqual(['Dashboard', 'New Quote', 'Claims']));
    expect(container.ownerDocument.querySelector('[data-audience="agency"]')).not.toBeNull();
    await user.click(await screen.findByRole('button', { name: /user menu/i }));
    const menu = await screen.findByRole('menu', { hidden: true });
    expect(within(menu).queryByText('Resources')).toBeNull();
    expect(within(menu).getByRole('menuitem', { name: 'My Account', hidden: true })).toBeTruthy();
    expect(within(menu).queryByRole('menuitem', { name: 'Support Tools', hidden: true })).toBeNull();
  });

  it('warns employees that this is the live site', async () => {
    renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor(),
      effectiveRole: 'Adjuster',
      carrierMeta: { live_status: true },
    });
    expect(await screen.findByText('Be careful, this is a Live site')).toBeTruthy();
  });

  it('does not show the live-site banner to agents or on a test site', async () => {
    const agent = renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor(),
      effectiveRole: 'Agency',
      carrierMeta: { live_status: true },
    });
    await screen.findByText('claims page');
    expect(screen.queryByText('Be careful, this is a Live site')).toBeNull();
    agent.unmount();
    renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor(),
      effectiveRole: 'Adjuster',
      carrierMeta: { live_status: false },
    });
    await screen.findByText('claims page');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText('Be careful, this is a Live site')).toBeNull();
  });

  it('hosts plugin activity panels and refuses to toggle away from unsaved notes', async () => {
    const { user, runtime } = renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor(),
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('claims page');
    await user.click(screen.getByRole('button', { name: 'Notes' }));
    expect(await screen.findByText('notes panel')).toBeTruthy();
    runtime.activity.getState().setUnsaved('notes', true);
    await user.click(screen.getByRole('button', { name: 'Notes' }));
    expect(await screen.findByText(UNSAVED_NOTES_WARNING)).toBeTruthy();
    expect(screen.getByText('notes panel')).toBeTruthy();
  });

  it('lists the visible modules on the All Modules dashboard', async () => {
    renderHost({
      path: '/all-modules',
      manifests: plugins,
      session: sessionFor(),
      effectiveRole: 'Adjuster',
      viewable: (m) => m === 'rules',
    });
    expect(await screen.findByRole('heading', { name: 'All Modules' })).toBeTruthy();
    await screen.findByRole('link', { name: 'Rules' });
    expect(screen.queryByRole('link', { name: 'Claims' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });
});

describe('sidebar folding', () => {
  it('folds the main sidebar to icons, keeps names for assistive tech, and remembers it per user', async () => {
    localStorage.clear();
    const first = renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor('Jane Doe'),
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('claims page');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await first.user.click(within(nav).getByRole('button', { name: 'Collapse sidebar' }));
    expect(nav.getAttribute('data-collapsed')).toBe('true');
    // The titles stay the links' names while only icons show.
    expect(within(nav).getByRole('link', { name: 'Claims' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Expand sidebar' })).toBeTruthy();
    first.unmount();

    const again = renderHost({
      path: '/claims',
      manifests: plugins,
      session: sessionFor('Jane Doe'),
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('claims page');
    expect(screen.getByRole('navigation', { name: 'Main' }).getAttribute('data-collapsed')).toBe('true');
    again.unmount();

    // Someone else on the same browser keeps their own (default) layout.
    const other = sessionFor('Bob Other');
    renderHost({
      path: '/claims',
      manifests: plugins,
      session: { ...other, user: { ...other.user, id: 'u-2' } },
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('claims page');
    expect(screen.getByRole('navigation', { name: 'Main' }).getAttribute('data-collapsed')).toBe('false');
  });

  it('shows a module’s own pages as a strip over the content only when it has more than one', async () => {
    renderHost({ path: '/claims', manifests: plugins, session: sessionFor(), effectiveRole: 'Adjuster' });
    await screen.findByText('claims page');
    // The test plugins declare no `sub` entries: no empty strip, no second sidebar.
    expect(screen.queryByRole('navigation', { name: 'Module' })).toBeNull();
  });
});
