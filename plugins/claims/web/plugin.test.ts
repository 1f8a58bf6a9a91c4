import { createContextService, createPluginRegistry } from '@atrium/sdk';
import { describe, expect, it } from 'vitest';
import { ADMIN_MODULES, filterAdminModules } from './admin/admin-modules.js';
import { setOpenClaim } from './open-claim.js';
import claims, { ON_CLAIM_WORKSPACE } from './plugin.js';

describe('claims plugin (web)', () => {
  it('registers the spec route names under ui:claims, the sub navigation and the Claim quick search', () => {
    const registry = createPluginRegistry();
    registry.register(claims);
    expect(claims.moduleKey).toBe('claims');
    const names = registry.routes().map((r) => r.name);
    for (const name of [
      'claims:dashboard',
      'claims:loss-detail',
      'claims:exposures',
      'claims:accounting',
      'claims:parties',
      'claims:attachments',
      'claims:injury-summary',
      'claims:risks:types',
      'claims:claimants:exposures:details',
      'claims:admin-setup',
      'claims:admin-setup:perils',
    ])
      expect(names).toContain(name);
    expect(registry.routes().find((r) => r.name === 'claims:risks:types')?.path).toContain(':risk_type_group_name');
    expect(registry.nav('main').map((n) => n.title)).toEqual(['Claims']);
    expect(registry.danglingNav()).toEqual([]);
    expect(registry.quickSearchProvider('claims.search')).toMatchObject({ type: 'Claim', typePlural: 'Claims' });
  });

  it('offers add reserve / add payment only on a claim workspace, and they open its accounting tab', async () => {
    const registry = createPluginRegistry();
    registry.register(claims);
    const context = createContextService();
    const byId = new Map(registry.commands().map((c) => [c.item.id, c.item]));
    expect([...byId.keys()]).toEqual([
      'claims.newFnol',
      'claims.openClaim',
      'claims.assign',
      'claims.runPaymentBatch',
      'claims.manualItems',
      'claims.addReserve',
      'claims.addPayment',
      'claims.addRecovery',
    ]);
    context.setHost('route', 'claims:dashboard');
    expect(context.evaluate(ON_CLAIM_WORKSPACE)).toBe(false);
    context.setHost('route', 'claims:exposures');
    expect(context.evaluate(ON_CLAIM_WORKSPACE)).toBe(true);

    const visited: string[] = [];
    const services = { navigate: (to: string) => visited.push(to) } as never;
    setOpenClaim('CLM-000007');
    await byId.get('claims.addPayment')!.run(undefined as never, { services, context: context.snapshot() });
    await byId.get('claims.addReserve')!.run(undefined as never, { services, context: context.snapshot() });
    await byId.get('claims.addRecovery')!.run(undefined as never, { services, context: context.snapshot() });
    expect(byId.get('claims.addRecovery')!.when).toBe(ON_CLAIM_WORKSPACE);
    await byId
      .get('claims.openClaim')!
      .run({ number: 'CLM-000009' } as never, { services, context: context.snapshot() });
    setOpenClaim(null);
    expect(visited).toEqual([
      '/claims/CLM-000007/accounting?action=payment',
      '/claims/CLM-000007/accounting?action=reserve',
      '/claims/CLM-000007/accounting?action=recovery',
      '/claims/CLM-000009/details',
    ]);
  });

  it('filters the admin setup modules by title, case-insensitively', () => {
    expect(filterAdminModules(ADMIN_MODULES, 'PERIL').map((m) => m.title)).toEqual(['Perils']);
    expect(filterAdminModules(ADMIN_MODULES, ' maint').map((m) => m.title)).toEqual([
      'Mock Policies Maintenance',
      'Tag Maintenance',
      'Products Maintenance',
    ]);
    expect(filterAdminModules(ADMIN_MODULES, '')).toHaveLength(ADMIN_MODULES.length);
    expect(filterAdminModules(ADMIN_MODULES, 'payroll')).toEqual([]);
  });
});
