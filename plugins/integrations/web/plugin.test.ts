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
    ]);
    expect(plugin.nav.every((entry) => entry.area === 'sub')).toBe(true);
    expect(plugin.commands.map((command) => command.id)).toEqual([
      'integrations.open',
      'integrations.events',
      'integrations.subscriptions',
      'integrations.exceptions',
    ]);
    expect(plugin.shortcuts).toEqual([expect.objectContaining({ key: 'g i', command: 'integrations.open' })]);
  });
});
