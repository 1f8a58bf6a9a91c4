import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineServerPlugin, notFound } from '@atrium/sdk/server';
import { ACCESS_PERMISSION_DECLARATIONS } from '../server/permissions.js';
import { startAccessServer, type AccessTestServer } from './access-test-server.js';

/**
 * The evaluator at work on every route: the access module's own routes and a probe module's, which
 * also checks the record it reads (a claim the caller may not see is a 404, not its data).
 */
const CLAIMS = [
  { number: 'CLM-1', loss_state: 'TX', amount: '1200.00' },
  { number: 'CLM-2', loss_state: 'OK', amount: '800.00' },
];
const probeClaims = defineServerPlugin({
  id: 'probe-claims',
  permissions: [{ resource: 'claims:claim', action: 'read', description: 'Read claims.' }],
  routes(router, context) {
    router.get(
      '/claims/:number',
      { config: { access: { resource: 'claims:claim', action: 'read' } } },
      async (request) => {
        const claim = CLAIMS.find((c) => c.number === (request.params as { number: string }).number);
        if (!claim) throw notFound();
        const evaluation = await context.services.evaluator!.evaluate(request.principal!, {
          resource: 'claims:claim',
          action: 'read',
          record: claim,
        });
        if (!evaluation.allowed) throw notFound(`Claim ${claim.number} not found.`);
        return claim;
      },
    );
  },
});

let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer([probeClaims]);
  await server.admin.post('/api/access/roles', { name: 'State Adjuster' });
  const policy = await (
    await server.admin.post('/api/access/policies', {
      name: 'Claims in my state',
      statements: [
        {
          effect: 'allow',
          actions: ['read'],
          resources: ['claims:claim'],
          conditions: [{ attribute: 'record.loss_state', operator: 'eq', value: { ref: 'user.state' } }],
        },
      ],
    })
  ).json();
  await server.admin.post('/api/access/policy-assignments', { policy_id: policy.id, role: 'State Adjuster' });
  await server.admin.post('/api/access/role-user-name-assignments', {
    user_name: 'tex@atrium.test',
    role: 'State Adjuster',
  });
});
afterAll(async () => server?.close());

describe('route checks', () => {
  it('answers 401 without credentials', async () => {
    const response = await server.as(null).get('/api/access/policies');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ title: 'Authorization Required.' });
  });

  it('refuses a role without the permission with a plain 403', async () => {
    const response = await server.as('adjuster@atrium.test').get('/api/access/policies');
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body).toMatchObject({ title: "Forbidden resource can't be accessed.", code: 'no-matching-statement' });
    expect(body.ingress_denied).toBeUndefined();
    const agent = await server.as('agent@agency.test').post('/api/access/roles', { name: 'Sneaky' });
    expect(agent.status).toBe(403);
    expect((await agent.json()).code).toBe('denied-by-statement');
  });

  it('marks the 403 ingress-denied for a caller without a role assignment', async () => {
    const response = await server.as('stranger@atrium.test').get('/api/access/roles');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      ingress_denied: true,
      annotation: 'no-role-assignment',
      code: 'no-role-assignment',
    });
  });

  it('marks the 403 ingress-denied for a caller without an effective role', async () => {
    const response = await server.as('multi@atrium.test').get('/api/probe-claims/claims/CLM-1');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ingress_denied: true, annotation: 'no-effective-role' });
  });

  it('lets roles held through a group through', async () => {
    const viaGroup = server.as('new.admin@atrium.test', { groups: ['Administrators'] });
    expect((await viaGroup.get('/api/access/roles')).status).toBe(200);
    expect((await server.as('new.admin@atrium.test').get('/api/access/roles')).status).toBe(403);
  });

  it('hides a record the caller may not see behind a 404', async () => {
    const texan = server.as('tex@atrium.test', { attributes: { state: 'TX' } });
    expect(await (await texan.get('/api/probe-claims/claims/CLM-1')).json()).toMatchObject({ number: 'CLM-1' });
    const elsewhere = await texan.get('/api/probe-claims/claims/CLM-2');
    expect(elsewhere.status).toBe(404);
    expect(JSON.stringify(await elsewhere.json())).not.toContain('800.00');
    // Adjusters may read every claim; underwriters have claims:* read too; agents only claims:claim.
    expect((await server.as('adjuster@atrium.test').get('/api/probe-claims/claims/CLM-2')).status).toBe(200);
    expect((await server.as('author@atrium.test').get('/api/probe-claims/claims/CLM-2')).status).toBe(403);
  });
});

describe('declarations', () => {
  it("checks every access route against a permission of the module's own list, evaluations excepted", async () => {
    const routes = server.atrium.routes.filter((route) => route.plugin === 'access');
    expect(routes.length).toBeGreaterThan(30);
    const declared = new Set(ACCESS_PERMISSION_DECLARATIONS.map((p) => `${p.resource}:${p.action}`));
    for (const route of routes) {
      if (route.url === '/api/access/evaluations') {
        expect(route.access).toBe('authenticated');
        continue;
      }
      expect(typeof route.access, `${route.method} ${route.url}`).toBe('object');
      const access = route.access as { resource: string; action: string };
      expect(declared.has(`${access.resource}:${access.action}`), `${route.method} ${route.url}`).toBe(true);
    }
  });

  it('every route an administrator may call, and an agent may not', async () => {
    const routes = server.atrium.routes.filter(
      (route) => route.plugin === 'access' && typeof route.access === 'object',
    );
    const agent = server.as('agent@agency.test');
    for (const route of routes) {
      const url = route.url
        .replace(':id', '1')
        .replace(':username', 'admin@atrium.test')
        .replace(':name', 'Administrators');
      const response = await agent.send(route.method, url, {
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
        headers: route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' },
      });
      expect(response.status, `${route.method} ${url}`).toBe(403);
    }
  });
});
