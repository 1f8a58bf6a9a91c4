import { createPluginRegistry } from '@atrium/sdk';
import { describe, expect, it, vi } from 'vitest';
import { fileNameFromDisposition, runBatch, toggleOrdering } from './access-api.js';
import access from './plugin.js';
import { accessPolicyEditRoute } from './routes.js';

describe('access plugin (web)', () => {
  it('registers the spec routes under /access, a main nav entry tied to ui:access and palette commands', () => {
    const registry = createPluginRegistry();
    registry.register(access);
    expect(access.moduleKey).toBe('access');
    expect(registry.routes().map((r) => [r.name, r.path])).toEqual([
      ['access:index', '/access'],
      ['access:policies', '/access/policies'],
      ['access:policy-edit', '/access/policies/:policyId'],
      ['access:roles', '/access/roles'],
      ['access:users', '/access/users'],
      ['access:groups', '/access/groups'],
      ['access:assignments', '/access/assignments'],
      ['access:import-export', '/access/import-export'],
    ]);
    expect(registry.nav('main').map((n) => n.title)).toEqual(['Access']);
    expect(registry.danglingNav()).toEqual([]);
    expect(registry.commands().map((c) => c.item.id)).toEqual([
      'access.open',
      'access.openPolicies',
      'access.newPolicy',
    ]);
  });

  it('palette commands open the list and a new policy', async () => {
    const navigate = vi.fn();
    const services = { navigate } as never;
    for (const command of access.commands) await command.run(undefined as never, { services, context: {} as never });
    expect(navigate.mock.calls).toEqual([['/access'], ['/access/policies'], ['/access/policies/new']]);
    expect(accessPolicyEditRoute.link({ policyId: 7 })).toBe('/access/policies/7');
  });

  it('helpers: ordering toggles, batches report failures, file names come from content-disposition', async () => {
    expect(toggleOrdering('name', 'name')).toBe('-name');
    expect(toggleOrdering('-name', 'name')).toBe('name');
    const failed = await runBatch([1, 2, 3], async (n) => {
      if (n === 2) throw new Error('Policy 2 not found.');
    });
    expect(failed).toEqual([{ item: 2, errorMessage: 'Policy 2 not found.' }]);
    expect(fileNameFromDisposition('attachment; filename="atrium-access-2026-11-22.csv"', 'x')).toBe(
      'atrium-access-2026-11-22.csv',
    );
    expect(fileNameFromDisposition(null, 'x.json')).toBe('x.json');
  });
});
