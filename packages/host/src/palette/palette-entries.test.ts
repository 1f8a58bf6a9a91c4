import {
  createCommandRegistry,
  createContextService,
  createKeybindingManager,
  createRouteRef,
  type HostServices,
} from '@atrium/sdk';
import { describe, expect, it } from 'vitest';
import type { RecordGroup } from '../quick-search/record-search.js';
import { buildPaletteEntries, type PaletteDestination } from './palette-entries.js';
import { createPaletteIndex, paletteResults, recordGroups } from './palette-results.js';

// The palette never runs commands here; the services are never called.
const services = {} as HostServices;

const ref = (name: string, path: string) => createRouteRef({ name, path });
const nav = (
  id: string,
  title: string,
  pluginId: string,
  href: string,
  extra: Partial<PaletteDestination['entry']> = {},
): PaletteDestination => ({ entry: { id, title, pluginId, to: ref(id, href), ...extra }, href });

/** The navigation of the modules installed today, as the sidebars list it (main first, then sub). */
const DESTINATIONS: PaletteDestination[] = [
  nav('host.all-modules', 'All Modules', 'host', '/', { command: 'host.goToDashboard' }),
  nav('claims.nav', 'Claims', 'claims', '/claims'),
  nav('access.nav', 'Access', 'access', '/access/policies', { command: 'access.openPolicies' }),
  nav('users.nav', 'Users', 'users', '/users', { command: 'users.open' }),
  nav('claims.agent', 'Claims', 'claims', '/claims'),
  nav('claims.dashboard', 'Dashboard', 'claims', '/claims'),
  nav('claims.fnol', 'New FNOL', 'claims', '/claims/fnol', { command: 'claims.newFnol' }),
  nav('access.policies', 'Access policies', 'access', '/access/policies'),
  nav('access.users', 'Users', 'access', '/access/users'),
  nav('users.list', 'Users', 'users', '/users'),
];

const MODULES = new Map([
  ['claims', 'Claims'],
  ['access', 'Access'],
  ['users', 'Users'],
]);

function setup() {
  const context = createContextService();
  const commands = createCommandRegistry({ context, services });
  const keybindings = createKeybindingManager({ context, execute: () => undefined });
  for (const [id, title, group, source] of [
    ['host.goToDashboard', 'Go to All Modules', 'Navigation', 'host'],
    ['host.openCommandPalette', 'Open Command Palette', 'General', 'host'],
    ['access.openPolicies', 'Open Access Policies', 'Access', 'access'],
    ['access.newPolicy', 'New Access Policy', 'Access', 'access'],
    ['users.open', 'Open Users', 'Users', 'users'],
    ['claims.newFnol', 'New FNOL', 'Claims', 'claims'],
    ['claims.runPaymentBatch', 'Run payment batch', 'Payments', 'claims'],
  ] as const)
    commands.registerCommand({ id, title, group, run() {} }, { source });
  keybindings.register({ key: 'g h', command: 'host.goToDashboard' });
  keybindings.register({ key: 'mod+k', command: 'host.openCommandPalette' });
  keybindings.register({ key: 'f1', command: 'host.openCommandPalette' });
  keybindings.register({ key: 'g a', command: 'access.openPolicies' });
  keybindings.register({ key: 'g u', command: 'users.open' });
  return buildPaletteEntries({
    destinations: DESTINATIONS,
    commands: commands.list(),
    keybindings: keybindings.list(),
    platform: 'other',
    moduleTitles: MODULES,
  });
}

describe('palette entries', () => {
  it('lists every destination once, whatever number of sidebar links lead there', () => {
    const entries = setup();
    const destinations = entries.filter((e) => e.kind === 'nav');
    expect(destinations.map((e) => [e.breadcrumb ?? '', e.title, e.to])).toEqual([
      ['', 'All Modules', '/'],
      ['', 'Claims', '/claims'],
      ['', 'Access', '/access/policies'],
      ['', 'Users', '/users'],
      ['Claims', 'New FNOL', '/claims/fnol'],
      ['Access', 'Users', '/access/users'],
    ]);
    expect(new Set(destinations.map((e) => e.to)).size).toBe(destinations.length);
    // The titles of the links folded into one entry still find it.
    const claims = destinations.find((e) => e.to === '/claims')!;
    expect(claims.keywords).toContain('Dashboard');
    const access = destinations.find((e) => e.to === '/access/policies')!;
    expect(access.keywords).toContain('Access policies');
  });

  it('shows the shortcut of the command behind a destination and lists that command no more', () => {
    const entries = setup();
    const byTitle = (title: string) => entries.filter((e) => e.title === title);
    expect(byTitle('All Modules')[0]).toMatchObject({ shortcut: 'G then H', commandId: 'host.goToDashboard' });
    expect(byTitle('Users')[0]).toMatchObject({ shortcut: 'G then U', to: '/users' });
    expect(byTitle('Access')[0]).toMatchObject({ shortcut: 'G then A' });
    // Absorbed by their destinations.
    for (const title of ['Go to All Modules', 'Open Access Policies', 'Open Users']) expect(byTitle(title)).toEqual([]);
    expect(byTitle('New FNOL')).toHaveLength(1);
    // The first binding of a command is the one shown.
    expect(byTitle('Open Command Palette')[0]).toMatchObject({ kind: 'command', shortcut: 'Ctrl+K' });
  });

  it("names a command's module when its group does not", () => {
    const entries = setup();
    expect(entries.find((e) => e.title === 'Run payment batch')).toMatchObject({
      group: 'Payments',
      breadcrumb: 'Claims',
    });
    expect(entries.find((e) => e.title === 'New Access Policy')?.breadcrumb).toBeUndefined();
    expect(entries.find((e) => e.title === 'Open Command Palette')?.breadcrumb).toBeUndefined();
  });
});

describe('records in the palette', () => {
  const found: RecordGroup[] = [
    {
      providerId: 'claims.search',
      type: 'Claim',
      typePlural: 'Claims',
      items: [{ id: '40', title: 'CLM-000040', subtitle: 'Open', to: '/claims/CLM-000040/details' }],
      pending: false,
      error: null,
    },
    { providerId: 'contacts.search', type: 'Contact', typePlural: 'Contacts', items: [], pending: false, error: null },
    {
      providerId: 'policies.search',
      type: 'Policy',
      typePlural: 'Policies',
      items: [],
      pending: false,
      error: 'The policy service did not answer.',
    },
  ];

  it('groups hits by provider, leaving out providers that found nothing, and keeps errors to their group', () => {
    const groups = recordGroups(found);
    expect(groups.map((g) => [g.heading, g.items.map((i) => i.title), g.error])).toEqual([
      ['Matching Claims', ['CLM-000040'], null],
      ['Matching Policies', [], 'The policy service did not answer.'],
    ]);
    expect(groups[0]!.items[0]).toMatchObject({ kind: 'record', recordType: 'Claim', breadcrumb: 'Claim' });
  });

  it('puts records ahead of commands for a number, after them for words, and recent items first', () => {
    const entries = buildPaletteEntries({
      destinations: DESTINATIONS,
      recent: [{ type: 'Claim', typePlural: 'Claims', items: [{ id: '7', title: 'CLM-000007', to: '/c/7' }] }],
    });
    const index = createPaletteIndex(entries);
    const records = recordGroups(found);
    expect(paletteResults(index, 'clm-0', { records }).map((g) => g.heading)).toEqual([
      'Recent',
      'Matching Claims',
      'Matching Policies',
    ]);
    expect(paletteResults(index, 'claims', { records }).map((g) => g.heading)).toEqual([
      'Recent',
      'Go to',
      'Matching Claims',
      'Matching Policies',
    ]);
  });
});
