// @vitest-environment jsdom
import { createRouteRef, defineCommand, definePlugin } from '@atrium/sdk';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { contactsPlugin, policiesPlugin, policyProvider } from '../testing/example-plugins.js';
import { renderHost, sessionFor } from '../testing/render-host.js';
import { PALETTE_RENDER_LIMIT } from './palette-results.js';

const rulesRoute = createRouteRef({ name: 'rules:list', path: '/rules' });
const rulesPlugin = definePlugin({
  id: 'rules-test',
  title: 'Rules',
  moduleKey: 'rules',
  routes: [
    {
      name: rulesRoute.name,
      path: rulesRoute.path,
      meta: { layout: 'default' },
      loader: async () => ({ default: () => <p>rules page</p> }),
    },
  ],
  nav: [{ id: 'rules.nav', title: 'Rules', to: rulesRoute, area: 'main', order: 1 }],
});

async function openPalette(host: ReturnType<typeof renderHost>) {
  await host.user.keyboard('{Control>}k{/Control}');
  const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
  const input = within(dialog).getByRole('combobox');
  await waitFor(() => expect(document.activeElement).toBe(input));
  return dialog;
}

/** The first span of an option is its title (a hint or subtitle may follow). */
const optionTitles = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByRole('option')
    .map((o) => o.querySelector('span')?.textContent);

describe('command palette', () => {
  it('opens with Ctrl+K and lists modules the user may see, recent items and every command', async () => {
    const host = renderHost({
      path: '/policies-test/P-0',
      manifests: [policiesPlugin(), rulesPlugin],
      session: sessionFor(),
      effectiveRole: 'Adjuster',
    });
    host.runtime.recents.add('Policy', { id: 'P-7', title: 'P-7 Recent Policy', to: '/policies-test/P-7' });
    await screen.findByText('policy page');
    const dialog = await openPalette(host);
    await waitFor(() => expect(optionTitles(dialog)).toContain('Rules'));
    const titles = optionTitles(dialog);
    expect(titles).toEqual(
      expect.arrayContaining([
        'All Modules',
        'P-7 Recent Policy',
        'Renew Policy',
        'Policy Quick Search',
        'Show Keyboard Shortcuts',
      ]),
    );
    const values = within(dialog)
      .getAllByRole('option')
      .map((o) => o.getAttribute('data-value'));
    expect(new Set(values).size).toBe(values.length);
  });

  it('leaves out modules the role may not view', async () => {
    const host = renderHost({
      path: '/policies-test/P-0',
      manifests: [policiesPlugin(), rulesPlugin],
      session: sessionFor(),
      effectiveRole: 'Adjuster',
      viewable: () => false,
    });
    await screen.findByText('policy page');
    const dialog = await openPalette(host);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(optionTitles(dialog)).not.toContain('Rules');
  });

  it('runs a command found by a fuzzy keyword with the keyboard only', async () => {
    const run = vi.fn();
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin(undefined, run)] });
    await screen.findByText('policy page');
    const dialog = await openPalette(host);
    await host.user.keyboard('renewal');
    await waitFor(() => expect(optionTitles(dialog)[0]).toBe('Renew Policy'));
    await host.user.keyboard('{Enter}');
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull());
  });

  it('navigates to a module', async () => {
    const host = renderHost({
      path: '/policies-test/P-0',
      manifests: [policiesPlugin(), rulesPlugin],
      session: sessionFor(),
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('policy page');
    const dialog = await openPalette(host);
    await host.user.keyboard('rules');
    await waitFor(() => expect(optionTitles(dialog)[0]).toBe('Rules'));
    await host.user.keyboard('{Enter}');
    expect(await screen.findByText('rules page')).toBeTruthy();
    expect(host.location().pathname).toBe('/rules');
  });

  it('renders a capped list with 10,000 commands and still finds the one asked for', async () => {
    const many = definePlugin({
      id: 'many',
      title: 'Many',
      commands: Array.from({ length: 10_000 }, (_, i) =>
        defineCommand({ id: `many.command${i}`, title: `Generated Command ${i}`, group: 'Generated', run() {} }),
      ),
    });
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin(), many] });
    await screen.findByText('policy page');
    const dialog = await openPalette(host);
    expect(optionTitles(dialog).length).toBeLessThanOrEqual(PALETTE_RENDER_LIMIT);
    await host.user.keyboard('command 9876');
    await waitFor(() => expect(optionTitles(dialog)[0]).toBe('Generated Command 9876'));
    expect(optionTitles(dialog).length).toBeLessThanOrEqual(PALETTE_RENDER_LIMIT);
  });

  it('opens with F1 and finds records of every quick search as one types, grouped, without picking a provider', async () => {
    const provider = policyProvider();
    const host = renderHost({
      path: '/policies-test/P-0',
      manifests: [policiesPlugin(provider), contactsPlugin],
      session: sessionFor(),
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('policy page');
    await host.user.keyboard('{F1}');
    const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('combobox')));
    await host.user.keyboard('P-100');
    const policies = await within(dialog).findByRole('group', { name: 'Matching Policies' }, { timeout: 3000 });
    const contacts = within(dialog).getByRole('group', { name: 'Matching Contacts' });
    // Five hits per provider at most; the provider was asked once, for the whole text.
    expect(
      within(policies)
        .getAllByRole('option')
        .map((o) => o.querySelector('span')?.textContent),
    ).toEqual(['P-1001', 'P-1002', 'P-1003', 'P-1004', 'P-1005']);
    expect(provider.search).toHaveBeenCalledTimes(1);
    expect(within(contacts).getByRole('option', { name: /Contact P-100/ })).toBeTruthy();

    await host.user.click(within(policies).getByRole('option', { name: /P-1003/ }));
    await waitFor(() => expect(host.location().pathname).toBe('/policies-test/P-1003'));
    // Opened from the palette, it is the first recently viewed policy next time.
    expect(host.runtime.recents.get('Policy')[0]).toMatchObject({ id: 'P-1003', title: 'P-1003' });
    await openPalette(host);
    const recent = await screen.findByRole('group', { name: 'Recent' });
    expect(within(recent).getAllByRole('option')[0]!.textContent).toContain('P-1003');
  });
});
