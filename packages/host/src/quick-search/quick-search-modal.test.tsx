// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { contactsPlugin, policiesPlugin, policyProvider } from '../testing/example-plugins.js';
import { renderHost } from '../testing/render-host.js';

async function openPolicySearch(options: Parameters<typeof renderHost>[0] = {}) {
  const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin(), contactsPlugin], ...options });
  await screen.findByText('policy page');
  await host.user.keyboard('gp');
  const dialog = await screen.findByRole('dialog', { name: 'Policy Quick Search' });
  const input = within(dialog).getByRole('combobox');
  await waitFor(() => expect(document.activeElement).toBe(input));
  return { ...host, dialog, input };
}

const options = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByRole('option')
    .map((o) => o.textContent);
const selected = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByRole('option', { selected: true })
    .map((o) => o.textContent);

describe('quick search modal', () => {
  it("is titled '{type} Quick Search' and shows recently viewed items for an empty input", async () => {
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin()] });
    host.runtime.recents.add('Policy', { id: 'P-2001', title: 'P-2001', to: '/policies-test/P-2001' });
    await screen.findByText('policy page');
    await host.user.keyboard('gp');
    const dialog = await screen.findByRole('dialog', { name: 'Policy Quick Search' });
    expect(within(dialog).getByText('Recently Viewed Policies')).toBeTruthy();
    expect(options(dialog)).toEqual(['P-2001']);
  });

  it("searches after the debounce, shows 'Matching {types}' and at most 5 results", async () => {
    const provider = policyProvider();
    const { dialog, user } = await openPolicySearch({ manifests: [policiesPlugin(provider)] });
    await user.keyboard('P-1');
    expect(within(dialog).getByText('Matching Policies')).toBeTruthy();
    await waitFor(() => expect(options(dialog)).toHaveLength(5));
    // Typed in one burst: one search, for the whole input.
    expect(provider.search).toHaveBeenCalledTimes(1);
    expect(vi.mocked(provider.search).mock.calls[0]![0].query).toBe('P-1');
  });

  it('does not search one character and says nothing about matches then', async () => {
    const provider = policyProvider();
    const { dialog, user } = await openPolicySearch({ manifests: [policiesPlugin(provider)] });
    await user.keyboard('P');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(provider.search).not.toHaveBeenCalled();
    expect(within(dialog).queryByText('No matching Policies found.')).toBeNull();
  });

  it("says 'No matching {types} found.' only once a search came back empty", async () => {
    const { dialog, user } = await openPolicySearch();
    await user.keyboard('zz');
    expect(within(dialog).queryByText('No matching Policies found.')).toBeNull();
    expect(await within(dialog).findByText('No matching Policies found.')).toBeTruthy();
  });

  it('moves the selection with Up and Down, wrapping at both ends', async () => {
    const { dialog, user } = await openPolicySearch();
    await user.keyboard('P-100');
    await waitFor(() => expect(options(dialog)).toHaveLength(5));
    expect(selected(dialog)).toEqual([expect.stringContaining('P-1001')]);
    await user.keyboard('{ArrowUp}');
    expect(selected(dialog)).toEqual([expect.stringContaining('P-1005')]);
    await user.keyboard('{ArrowDown}');
    expect(selected(dialog)).toEqual([expect.stringContaining('P-1001')]);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(selected(dialog)).toEqual([expect.stringContaining('P-1003')]);
  });

  it('opens the selected item with Enter and remembers it as recently viewed', async () => {
    const { dialog, user, location, runtime } = await openPolicySearch();
    await user.keyboard('P-100');
    await waitFor(() => expect(options(dialog)).toHaveLength(5));
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(location().pathname).toBe('/policies-test/P-1002'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Policy Quick Search' })).toBeNull());
    expect(runtime.recents.get('Policy').map((item) => item.id)).toEqual(['P-1002']);
  });

  it('fills the prefix placeholder with Tab', async () => {
    const { input, user } = await openPolicySearch();
    expect(input.getAttribute('placeholder')).toBe('P-');
    await user.keyboard('{Tab}');
    expect((input as HTMLInputElement).value).toBe('P-');
    expect(document.activeElement).toBe(input);
  });

  it('does not fill a prefix for contacts', async () => {
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin(), contactsPlugin] });
    await screen.findByText('policy page');
    await host.user.keyboard('gn');
    const dialog = await screen.findByRole('dialog', { name: 'Contact Quick Search' });
    const input = within(dialog).getByRole('combobox') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(input));
    await host.user.keyboard('{Tab}');
    expect(input.value).toBe('');
    expect(within(dialog).getByText('Recently Viewed Contacts')).toBeTruthy();
  });

  it('shows a failing provider as an error instead of breaking the modal', async () => {
    const provider = policyProvider({ search: vi.fn(async () => Promise.reject(new Error('Service unavailable'))) });
    const { dialog, user } = await openPolicySearch({ manifests: [policiesPlugin(provider)] });
    await user.keyboard('P-1');
    expect(await within(dialog).findByRole('alert')).toHaveProperty('textContent', 'Service unavailable');
    expect(within(dialog).queryByText('No matching Policies found.')).toBeNull();
  });
});
