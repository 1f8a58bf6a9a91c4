import { describe, expect, it } from 'vitest';
import plugin from './plugin.js';

describe('integrations web plugin', () => {
  it('opens its page with a command bound to g i, all behind ui:integrations', () => {
    expect(plugin.moduleKey).toBe('integrations');
    expect(plugin.routes.map((route) => route.path)).toEqual(['/integrations']);
    expect(plugin.commands.map((command) => command.id)).toEqual(['integrations.open']);
    expect(plugin.shortcuts).toEqual([expect.objectContaining({ key: 'g i', command: 'integrations.open' })]);
  });
});
