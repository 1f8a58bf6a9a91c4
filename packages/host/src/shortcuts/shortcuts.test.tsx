// @vitest-environment jsdom
import { defineCommand, definePlugin } from '@atrium/sdk';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { contactsPlugin, policiesPlugin } from '../testing/example-plugins.js';
import { renderHost } from '../testing/render-host.js';

describe('shortcuts', () => {
  it('g p opens the Policy quick search and g n the Contact one', async () => {
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin(), contactsPlugin] });
    await screen.findByText('policy page');
    await host.user.keyboard('gp');
    expect(await screen.findByRole('dialog', { name: 'Policy Quick Search' })).toBeTruthy();
    await host.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Policy Quick Search' })).toBeNull());
    await host.user.keyboard('gn');
    expect(await screen.findByRole('dialog', { name: 'Contact Quick Search' })).toBeTruthy();
  });

  it('g c says so when no module searches claims yet', async () => {
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin()] });
    await screen.findByText('policy page');
    await host.user.keyboard('gc');
    expect(await screen.findByText('Claim quick search is not available yet.')).toBeTruthy();
  });

  it('never fires while focus is in an input', async () => {
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin()] });
    await screen.findByText('policy page');
    const input = screen.getByRole('textbox', { name: 'Note' });
    await host.user.click(input);
    await host.user.keyboard('gp?');
    expect((input as HTMLInputElement).value).toBe('gp?');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('? lists every binding, including plugins’, and their conflicts', async () => {
    const first = definePlugin({
      id: 'first',
      title: 'First',
      commands: [defineCommand({ id: 'first.archive', title: 'Archive Claim', run: vi.fn() })],
      shortcuts: [{ key: 'g a', command: 'first.archive' }],
    });
    const second = definePlugin({
      id: 'second',
      title: 'Second',
      commands: [defineCommand({ id: 'second.assign', title: 'Assign Adjuster', run: vi.fn() })],
      shortcuts: [{ key: 'g a', command: 'second.assign' }],
    });
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin(), first, second] });
    await screen.findByText('policy page');
    await host.user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard Shortcuts' });
    const rows = within(within(dialog).getByRole('table', { name: 'Keyboard shortcuts' }))
      .getAllByRole('row')
      .map((r) => r.textContent);
    for (const expected of [
      'Ctrl+KOpen Command Palettehost',
      '?Show Keyboard Shortcutshost',
      'G then PPolicy quick searchhost',
      'G then CClaim quick searchhost',
      'G then NContact (Name) quick searchhost',
      'G then AArchive Claimfirst',
      'G then AAssign Adjustersecond',
    ]) {
      expect(rows).toContain(expected);
    }
    const conflicts = within(dialog).getByRole('region', { name: 'Conflicts' });
    expect(conflicts.textContent).toContain('Archive Claim (first) and Assign Adjuster (second)');
  });

  it('refuses a single key that is the prefix of a chord, keeps the shell working and lists the refusal', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const greedy = definePlugin({
      id: 'greedy',
      title: 'Greedy',
      commands: [defineCommand({ id: 'greedy.go', title: 'Go Somewhere', run: vi.fn() })],
      shortcuts: [{ key: 'g', command: 'greedy.go' }],
    });
    const host = renderHost({ path: '/policies-test/P-0', manifests: [policiesPlugin(), greedy] });
    expect(host.runtime.refusedBindings).toEqual([expect.stringContaining("Cannot bind 'g'")]);
    await screen.findByText('policy page');
    await host.user.keyboard('gp');
    expect(await screen.findByRole('dialog', { name: 'Policy Quick Search' })).toBeTruthy();
    await host.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await host.user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard Shortcuts' });
    expect(within(dialog).getByRole('region', { name: 'Refused bindings' }).textContent).toContain(
      "greedy: Cannot bind 'g'",
    );
    warn.mockRestore();
  });
});
