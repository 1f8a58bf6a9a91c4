import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePermissions, type DefaultGrants } from '@atrium/sdk/server';
import { createPermissionDefaultsInstaller, pluginPolicyName } from '../server/plugin-grants.js';
import { SYSTEM_POLICIES, SYSTEM_POLICY_VERSION } from '../server/system-policies.js';
import { policy } from '../server/tables.js';
import { startAccessServer, type AccessTestServer } from './access-test-server.js';

/**
 * A plugin's default grants across its versions (plugin-grants.ts): applied once, left alone while the
 * grant version stays, rewritten when it rises (a role it no longer grants loses the policy), never
 * lowered — and the evaluator answers by the grants in force.
 */
let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer();
});
afterAll(async () => server?.close());

const PLUGIN = { id: 'almanac', title: 'Almanac' };
const grants = (grantVersion: number, roles: DefaultGrants['roles']): DefaultGrants => ({
  plugin: PLUGIN.id,
  grantVersion,
  roles,
});
const read = { resource: 'almanac:entry', action: 'read', description: 'read entries' };
const write = { resource: 'almanac:entry', action: 'update', description: 'change entries' };

async function apply(defaultGrants: DefaultGrants) {
  await createPermissionDefaultsInstaller(server.atrium.database.db).apply([{ ...PLUGIN, defaultGrants }]);
}

async function may(username: string, action: string): Promise<boolean> {
  const response = await server
    .as(username)
    .post('/api/access/evaluations', { requests: [{ resource: 'almanac:entry', action }] });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: { evaluation: { allowed: boolean } }[] }).results[0]!.evaluation
    .allowed;
}

async function pluginPolicies(): Promise<{ name: string; version: string; statements: unknown }[]> {
  const response = await server.admin.get('/api/access/policies?page_size=500');
  const body = (await response.json()) as { results: { name: string; version: string; statements: unknown }[] };
  return body.results.filter((policy) => policy.name.endsWith(`(plugin ${PLUGIN.id})`));
}

describe("a plugin's default grants", () => {
  it('are applied once as system policies, and a rising grant version rewrites them', async () => {
    await apply(grants(1, [{ role: 'Claims Adjuster', permissions: [read] }]));
    expect((await pluginPolicies()).map((p) => [p.name, p.version])).toEqual([
      [pluginPolicyName(PLUGIN, 'Claims Adjuster'), '1.0.0'],
    ]);
    await expect.poll(() => may('adjuster@atrium.test', 'read'), { timeout: 10_000 }).toBe(true);
    expect(await may('adjuster@atrium.test', 'update')).toBe(false);
    expect(await may('underwriter@atrium.test', 'read')).toBe(false);

    // The same version with other permissions is not a new version: nothing changes.
    await apply(grants(1, [{ role: 'Claims Adjuster', permissions: [read, write] }]));
    expect((await pluginPolicies())[0]!.statements).toEqual([
      { effect: 'allow', actions: ['read'], resources: ['almanac:entry'] },
    ]);

    // Version 2 gives the adjuster update too and moves reading to the underwriter only.
    await apply(
      grants(2, [
        { role: 'Claims Adjuster', permissions: [write] },
        { role: 'Underwriter', permissions: [read] },
      ]),
    );
    expect((await pluginPolicies()).map((p) => [p.name, p.version]).sort()).toEqual([
      [pluginPolicyName(PLUGIN, 'Claims Adjuster'), '2.0.0'],
      [pluginPolicyName(PLUGIN, 'Underwriter'), '2.0.0'],
    ]);
    await expect.poll(() => may('underwriter@atrium.test', 'read'), { timeout: 10_000 }).toBe(true);
    expect(await may('adjuster@atrium.test', 'read')).toBe(false);
    expect(await may('adjuster@atrium.test', 'update')).toBe(true);

    // Version 3 no longer grants the underwriter anything: its policy goes.
    await apply(grants(3, [{ role: 'Claims Adjuster', permissions: [write] }]));
    expect((await pluginPolicies()).map((p) => p.name)).toEqual([pluginPolicyName(PLUGIN, 'Claims Adjuster')]);
    await expect.poll(() => may('underwriter@atrium.test', 'read'), { timeout: 10_000 }).toBe(false);

    // An older build starting against this database does not take the grants back to its version.
    await apply(grants(1, [{ role: 'Claims Adjuster', permissions: [read] }]));
    expect((await pluginPolicies()).map((p) => p.version)).toEqual(['3.0.0']);
    expect(await may('adjuster@atrium.test', 'update')).toBe(true);
  });
});

describe('the system policies of a database seeded by an older build', () => {
  const agentMay = async (record?: Record<string, unknown>): Promise<boolean> => {
    const response = await server
      .as('agent@agency.test', { attributes: { contact_id: 'CON-AGENT-ALEX', agency_id: 'CON-AGENCY-HARBOUR' } })
      .post('/api/access/evaluations', {
        requests: [{ resource: 'quote:quote', action: 'read', ...(record ? { record } : {}) }],
      });
    expect(response.status).toBe(200);
    return ((await response.json()) as { results: { evaluation: { allowed: boolean } }[] }).results[0]!.evaluation
      .allowed;
  };
  const stored = async (name: string) => {
    const response = await server.admin.get('/api/access/policies?page_size=500');
    const body = (await response.json()) as { results: { name: string; version: string; statements: unknown }[] };
    return body.results.find((p) => p.name === name)!;
  };

  it('are brought up to this build at start, keep their roles, and a newer one is never lowered', async () => {
    const db = server.atrium.database.db;
    // The Agent area as 1.7.0 wrote it (no book for quotes); the Agency area from a future build.
    const agentArea = SYSTEM_POLICIES.find((p) => p.name === 'Agent area')!;
    const before = agentArea.statements.filter((s) => s.sid !== 'QuotesOutsideOwnBook');
    await db
      .update(policy)
      .set({ version: '1.7.0', statements: before })
      .where(sql`${policy.name} = 'Agent area'`);
    const future = [{ sid: 'Future', effect: 'allow' as const, actions: ['read'], resources: ['reports:*'] }];
    await db
      .update(policy)
      .set({ version: '99.0.0', statements: future })
      .where(sql`${policy.name} = 'Agency area'`);
    const othersQuote = { agent_contact_id: 'CON-SOMEONE-ELSE', agency_contact_id: 'CON-ANOTHER-AGENCY' };
    const ownQuote = { agent_contact_id: 'CON-AGENT-ALEX', agency_contact_id: 'CON-AGENCY-HARBOUR' };

    // What a start does after seeding (packages/server/src/permission-defaults.ts).
    await createPermissionDefaultsInstaller(db).apply([]);

    const agent = await stored('Agent area');
    expect(agent.version).toBe(SYSTEM_POLICY_VERSION);
    expect(agent.statements).toEqual(agentArea.statements);
    const agency = await stored('Agency area');
    expect([agency.version, agency.statements]).toEqual(['99.0.0', future]);
    // The evaluator follows: another producer's quote is outside the agent's book, theirs is not.
    await expect.poll(() => agentMay(othersQuote), { timeout: 10_000 }).toBe(false);
    expect(await agentMay(ownQuote)).toBe(true);
    expect(await agentMay({ agent_contact_id: 'CON-SOMEONE-ELSE', agency_contact_id: 'CON-AGENCY-HARBOUR' })).toBe(
      true,
    );
    // A quote without producers is outside every book; the question without a record (the route
    // check) is still allowed: the policy kept its assignment to the Agent role.
    expect(await agentMay({})).toBe(false);
    expect(await agentMay()).toBe(true);
  });
});

describe('a plugin whose grant version rises (definePermissions, as start applies it)', () => {
  it("gets its new defaults while an administrator's custom policy and assignments stay as they were", async () => {
    const plugin = (grantVersion: number, adjuster: ('read' | 'create')[]) => ({
      id: 'logbook',
      title: 'Logbook',
      ...definePermissions('logbook', {
        grantVersion,
        module: 'the Logbook module',
        resources: { entry: { actions: { read: 'Read entries.', create: 'Write entries.' } } },
        grants: { 'Claims Adjuster': { view: true, entry: adjuster } },
      }),
    });
    const installer = createPermissionDefaultsInstaller(server.atrium.database.db);
    await installer.apply([plugin(1, ['read'])]);

    // The administrator's own changes: a custom policy for the underwriter, and the plugin's
    // adjuster policy given to the underwriter as well.
    const custom = (await (
      await server.admin.post('/api/access/policies', {
        name: 'Logbook writers (ours)',
        statements: [{ effect: 'allow', actions: ['create'], resources: ['logbook:entry'] }],
      })
    ).json()) as { id: number };
    expect(
      (await server.admin.post('/api/access/policy-assignments', { policy_id: custom.id, role: 'Underwriter' })).status,
    ).toBe(201);
    const policies = async () =>
      (
        (await (await server.admin.get('/api/access/policies?page_size=500')).json()) as {
          results: { id: number; name: string; type: string; version: string; statements: unknown }[];
        }
      ).results;
    const defaults = (await policies()).find(
      (p) => p.name === pluginPolicyName({ id: 'logbook', title: 'Logbook' }, 'Claims Adjuster'),
    )!;
    expect(
      (await server.admin.post('/api/access/policy-assignments', { policy_id: defaults.id, role: 'Underwriter' }))
        .status,
    ).toBe(201);
    const assignments = async (policyId: number) =>
      (
        (await (await server.admin.get(`/api/access/policy-assignments?policy_id=${policyId}`)).json()) as {
          results: { role: string }[];
        }
      ).results
        .map((a) => a.role)
        .sort();
    const customBefore = (await policies()).find((p) => p.id === custom.id);
    const evaluate = async (username: string, action: string) => {
      const response = await server
        .as(username)
        .post('/api/access/evaluations', { requests: [{ resource: 'logbook:entry', action }] });
      return ((await response.json()) as { results: { evaluation: { allowed: boolean } }[] }).results[0]!.evaluation
        .allowed;
    };
    await expect.poll(() => evaluate('adjuster@atrium.test', 'read'), { timeout: 10_000 }).toBe(true);
    expect(await evaluate('adjuster@atrium.test', 'create')).toBe(false);

    // The next start with the same grant version changes nothing; with version 2 the adjuster may write.
    await installer.apply([plugin(1, ['read', 'create'])]);
    expect((await policies()).find((p) => p.id === defaults.id)!.version).toBe('1.0.0');
    await installer.apply([plugin(2, ['read', 'create'])]);
    const after = await policies();
    expect(after.find((p) => p.id === defaults.id)).toMatchObject({
      type: 'system',
      version: '2.0.0',
      statements: [
        { effect: 'allow', actions: ['ViewModule'], resources: ['ui:logbook'] },
        { effect: 'allow', actions: ['read', 'create'], resources: ['logbook:entry'] },
      ],
    });
    await expect.poll(() => evaluate('adjuster@atrium.test', 'create'), { timeout: 10_000 }).toBe(true);
    // Untouched: the custom policy, its assignment, and the administrator's extra assignment of the defaults.
    expect(after.find((p) => p.id === custom.id)).toEqual(customBefore);
    expect(await assignments(custom.id)).toEqual(['Underwriter']);
    expect(await assignments(defaults.id)).toEqual(['Claims Adjuster', 'Underwriter']);
  });
});
