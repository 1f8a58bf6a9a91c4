import { describe, expect, it } from 'vitest';
import plugin from './plugin.js';

describe('integrations web plugin', () => {
  it('has the spec’s dashboard and events routes, no top navigation, and palette commands', () => {
    expect(plugin.moduleKey).toBe('integrations');
    expect(plugin.routes.map((route) => route.name)).toEqual([
      'integrations:dashboard',
      'integrations:events',
      'integrations:subscriptions',
      'integrations:subscription-messages',
      'integrations:exceptions',
      'integrations:datamappings',
      'integrations:datamappings-new',
      'integrations:datamappings-edit',
      'integrations:list',
      'integrations:new',
      'integrations:integration',
    ]);
    // Not in the navigation: the module's own sub-sidebar, and one entry in the user menu.
    expect(plugin.nav.some((entry) => entry.area === 'main' || entry.area === 'agent')).toBe(false);
    expect(plugin.nav.filter((entry) => entry.area === 'user-menu').map((entry) => entry.title)).toEqual([
      'Integrations',
    ]);
    expect(plugin.commands.map((command) => command.id)).toEqual([
      'integrations.open',
      'integrations.events',
      'integrations.subscriptions',
      'integrations.exceptions',
      'integrations.datamappings',
      'integrations.list',
    ]);
    expect(plugin.shortcuts).toEqual([expect.objectContaining({ key: 'g i', command: 'integrations.open' })]);
  });
});
