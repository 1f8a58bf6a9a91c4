import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointersOf, startAccessServer, type AccessTestServer, type Caller } from './access-test-server.js';

let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer();
});
afterAll(async () => server?.close());

type Question = {
  resource: string;
  action: string;
  record?: Record<string, unknown>;
  context?: Record<string, unknown>;
};
const evaluate = async (caller: Caller, ...requests: Question[]) => {
  const response = await caller.post('/api/access/evaluations', { requests });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: { evaluation: { allowed: boolean; reason: string } }[] }).results.map(
    (r) => r.evaluation,
  );
};
const allowed = async (caller: Caller, ...requests: Question[]) =>
  (await evaluate(caller, ...requests)).map((e) => e.allowed);

const MODULES = [
  'contacts',
  'lines',
  'policies',
  'claims',
  'reports',
  'documents',
  'rules',
  'access',
  'notes',
  'settings',
  'users',
  'my-account',
  'all-products',
  'integrations',
  'quote',
];
const visibleModules = async (caller: Caller) => {
  const answers = await allowed(
    caller,
    ...MODULES.map((module) => ({ resource: `ui:${module}`, action: 'ViewModule' })),
  );
  return MODULES.filter((_, i) => answers[i]);
};

describe('evaluations', () => {
  it('answers each request in order, with the reason', async () => {
    expect(
      await evaluate(
        server.as('adjuster@atrium.test'),
        { resource: 'claims:claim', action: 'read' },
        { resource: 'access:policy', action: 'read' },
      ),
    ).toEqual([
      { allowed: true, reason: 'allowed-by-statement' },
      { allowed: false, reason: 'no-matching-statement' },
    ]);
    expect(await evaluate(server.admin)).toEqual([]);
  });

  it('shows each demo role its modules through ViewModule', async () => {
    expect(await visibleModules(server.admin)).toEqual(MODULES);
    expect(await visibleModules(server.as('adjuster@atrium.test'))).toEqual([
      'contacts',
      'policies',
      'claims',
      'reports',
      'documents',
      'notes',
      'my-account',
      'all-products',
    ]);
    expect(await visibleModules(server.as('underwriter@atrium.test'))).toEqual([
      'contacts',
      'lines',
      'policies',
      'reports',
      'documents',
      'notes',
      'my-account',
      'all-products',
      'quote',
    ]);
    expect(await visibleModules(server.as('author@atrium.test'))).toEqual([
      'lines',
      'reports',
      'documents',
      'rules',
      'notes',
      'my-account',
      'all-products',
    ]);
    for (const agent of ['agent@agency.test', 'agency@agency.test']) {
      expect(await visibleModules(server.as(agent))).toEqual([
        'contacts',
        'policies',
        'claims',
        'reports',
        'my-account',
        'all-products',
        'quote',
      ]);
    }
  });

  it('closes the users area and administration to agents with an explicit deny', async () => {
    expect(
      await evaluate(
        server.as('agent@agency.test'),
        { resource: 'ui:users', action: 'ViewModule' },
        { resource: 'users:user', action: 'read' },
      ),
    ).toEqual([
      { allowed: false, reason: 'denied-by-statement' },
      { allowed: false, reason: 'denied-by-statement' },
    ]);
  });

  it('answers ingress reasons for callers without a role assignment or an effective role', async () => {
    expect(await evaluate(server.as('stranger@atrium.test'), { resource: 'ui:claims', action: 'ViewModule' })).toEqual([
      { allowed: false, reason: 'no-role-assignment' },
    ]);
    const multi = server.as('multi@atrium.test');
    expect(await evaluate(multi, { resource: 'ui:claims', action: 'ViewModule' })).toEqual([
      { allowed: false, reason: 'no-effective-role' },
    ]);
    expect(
      await allowed(server.as('multi@atrium.test', { role: 'Claims Adjuster' }), {
        resource: 'ui:claims',
        action: 'ViewModule',
      }),
    ).toEqual([true]);
    expect(
      await allowed(server.as('multi@atrium.test', { role: 'Underwriter' }), {
        resource: 'ui:claims',
        action: 'ViewModule',
      }),
    ).toEqual([false]);
    // Acting in a role one does not hold is no effective role at all.
    expect(
      await evaluate(server.as('adjuster@atrium.test', { role: 'Administrator' }), {
        resource: 'ui:claims',
        action: 'ViewModule',
      }),
    ).toEqual([{ allowed: false, reason: 'no-effective-role' }]);
  });

  it('needs a signed-in caller', async () => {
    const response = await server.as(null).post('/api/access/evaluations', { requests: [] });
    expect(response.status).toBe(401);
  });

  it('refuses malformed requests with pointers', async () => {
    const post = (body: unknown) => server.admin.post('/api/access/evaluations', body);
    expect(await pointersOf(await post({ requests: [{ resource: 'x' }] }))).toEqual(['/requests/0/action']);
    expect(await pointersOf(await post({ requests: [{ resource: 'x', action: 'y', colour: 1 }] }))).toEqual([
      '/requests/0/colour',
    ]);
    expect(await pointersOf(await post({ requests: [{ resource: 'x', action: 'y', record: 'claim' }] }))).toEqual([
      '/requests/0/record',
    ]);
    expect(await pointersOf(await post({ requests: 'all' }))).toEqual(['/requests']);
    expect(await pointersOf(await post({}))).toEqual(['/requests']);
    const tooMany = Array.from({ length: 1001 }, () => ({ resource: 'x', action: 'y' }));
    expect(await pointersOf(await post({ requests: tooMany }))).toEqual(['/requests']);
  });

  it('compares amounts as decimals: claims adjusters pay up to 5000.00', async () => {
    const adjuster = server.as('adjuster@atrium.test');
    const pay = (amount: unknown) => ({ resource: 'claims:payment', action: 'create', record: { amount } });
    expect(
      await allowed(adjuster, pay('4999.99'), pay('5000.00'), pay(5000), pay('5000.01'), pay(5000.000001), pay('lots')),
    ).toEqual([true, true, true, false, false, false]);
    expect(
      await allowed(
        adjuster,
        { resource: 'claims:payment', action: 'create' },
        { resource: 'claims:payment', action: 'create', record: {} },
      ),
    ).toEqual([true, false]);
  });

  it('lets claims supervisors update claims and approve payments up to 25000.00', async () => {
    const supervisor = server.as('supervisor@atrium.test');
    const approve = (amount: string) => ({ resource: 'claims:payment', action: 'approve', record: { amount } });
    expect(
      await allowed(
        supervisor,
        { resource: 'claims:claim', action: 'update' },
        { resource: 'claims:transaction', action: 'approve' },
        approve('6000.00'),
        approve('25000.00'),
        approve('25000.01'),
        { resource: 'claims:authority-limit', action: 'update' },
        { resource: 'ui:claims', action: 'ViewModule' },
        { resource: 'ui:access', action: 'ViewModule' },
      ),
    ).toEqual([true, true, true, true, false, false, true, false]);
    expect(await allowed(server.as('adjuster@atrium.test'), approve('6000.00'))).toEqual([false]);
  });
});

describe('policies written through the API', () => {
  let texan: Caller;
  beforeAll(async () => {
    await server.admin.post('/api/access/roles', { name: 'State Adjuster' });
    const policy = await (
      await server.admin.post('/api/access/policies', {
        name: 'Claims in my state',
        statements: [
          {
            sid: 'OwnState',
            effect: 'allow',
            actions: ['read', 'update'],
            resources: ['claims:claim'],
            conditions: [{ attribute: 'record.loss_state', operator: 'eq', value: { ref: 'user.state' } }],
          },
          {
            sid: 'NightShift',
            effect: 'deny',
            actions: ['update'],
            resources: ['claims:*'],
            conditions: [{ attribute: 'context.channel', operator: 'in', value: ['batch'] }],
          },
          { sid: 'ClaimsModule', effect: 'allow', actions: ['ViewModule'], resources: ['ui:claims'] },
        ],
      })
    ).json();
    await server.admin.post('/api/access/policy-assignments', { policy_id: policy.id, role: 'State Adjuster' });
    await server.admin.post('/api/access/role-user-name-assignments', {
      user_name: 'tex@atrium.test',
      role: 'State Adjuster',
    });
    texan = server.as('tex@atrium.test', { attributes: { state: 'TX' } });
  });

  it("limits claims to the user's state", async () => {
    expect(
      await allowed(
        texan,
        { resource: 'claims:claim', action: 'read', record: { loss_state: 'TX' } },
        { resource: 'claims:claim', action: 'read', record: { loss_state: 'OK' } },
        { resource: 'claims:claim', action: 'read', record: {} },
        { resource: 'claims:claim', action: 'read' },
        { resource: 'ui:claims', action: 'ViewModule' },
      ),
    ).toEqual([true, false, false, true, true]);
    const stateless = server.as('tex@atrium.test');
    expect(
      await allowed(stateless, { resource: 'claims:claim', action: 'read', record: { loss_state: 'TX' } }),
    ).toEqual([false]);
  });

  it('lets a deny win over the allow', async () => {
    const record = { loss_state: 'TX' };
    expect(
      await evaluate(texan, { resource: 'claims:claim', action: 'update', record, context: { channel: 'batch' } }),
    ).toEqual([{ allowed: false, reason: 'denied-by-statement' }]);
    expect(
      await allowed(texan, { resource: 'claims:claim', action: 'update', record, context: { channel: 'web' } }),
    ).toEqual([true]);
  });

  it('takes effect at once when a policy changes', async () => {
    const question = { resource: 'reports:report', action: 'read' };
    expect(await allowed(texan, question)).toEqual([false]);
    const policy = await (
      await server.admin.post('/api/access/policies', {
        name: 'Reports too',
        statements: [{ effect: 'allow', actions: ['read'], resources: ['reports:*'] }],
      })
    ).json();
    const assignment = await (
      await server.admin.post('/api/access/policy-assignments', { policy_id: policy.id, role: 'State Adjuster' })
    ).json();
    expect(await allowed(texan, question)).toEqual([true]);
    await server.admin.patch(`/api/access/policies/${policy.id}`, {
      statements: [{ effect: 'deny', actions: ['read'], resources: ['reports:*'] }],
    });
    expect(await evaluate(texan, question)).toEqual([{ allowed: false, reason: 'denied-by-statement' }]);
    await server.admin.delete(`/api/access/policy-assignments/${assignment.id}`);
    expect(await evaluate(texan, question)).toEqual([{ allowed: false, reason: 'no-matching-statement' }]);
  });
});
