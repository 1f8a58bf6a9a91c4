import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, sweepSample, type TestServer } from '@atrium/sdk/testing';
import type { Operation } from './fuzz-harness.js';
import {
  DEMO_ROLES,
  benignInit,
  eachLimited,
  matrixMismatches,
  pathMatcher,
  permissionKey,
  prepareMatrix,
  resourcesOf,
  type Matrix,
  type Permission,
  type ResourceObject,
  type RoleFetch,
} from './authorization-harness.js';

/**
 * Issue 14: for operations that declare a permission and every demo role, the route's answer
 * agrees with the access evaluator (denied ⇒ 403, allowed ⇒ not 403); `include=` of every
 * relationship shows only types the role may read; and an agent reads, on every claims read path,
 * only the claims of the agent's own policies. See authorization-harness.ts. The matrix here
 * covers a sample of the operations (it moves daily, sweep.ts); `npm run test:full` runs all of
 * them (authorization-matrix.sweep.api.test.ts). include= and record scope run whole here.
 */
const SAMPLE = 100;

let server: TestServer;
let matrix: Matrix;
let operations: Matrix['operations'];

beforeAll(async () => {
  server = await startTestServer();
  matrix = await prepareMatrix(server);
  operations = matrix.operations;
}, 300_000);
afterAll(() => server?.close());

describe('operations answer as the evaluator says, for every demo role (sample)', () => {
  it('denied ⇒ 403, allowed ⇒ not 403', { timeout: 300_000 }, async () => {
    expect(operations.length).toBeGreaterThan(500);
    const { mismatches, summary } = await matrixMismatches(matrix, sweepSample(operations, SAMPLE));
    console.warn(`authorization matrix: ${summary}`);
    expect(mismatches).toEqual([]);
  });
});

interface IncludeRoute {
  op: Operation;
  path: string;
  /** `page[size]=10&` where the route pages: a short page meets every included type and stays small. */
  page: string;
  include: string[];
}

/** The routes with `include=`, each with every relationship it can include (as the administrator found). */
let includeRoutes: Promise<{ routes: IncludeRoute[]; readPermissionOf: Map<string, Permission> }> | undefined;
function discoverIncludes() {
  includeRoutes ??= (async () => {
    const itemRoutes = operations
      .filter((op) => op.method === 'GET' && op.pathParams.length > 0)
      .map((op) => ({ matcher: pathMatcher(op.path), permission: op.access as Permission }));
    const readPermissionOf = new Map<string, Permission>();
    const learn = (objects: ResourceObject[]) => {
      for (const object of objects) {
        const self = object.links?.self && new URL(object.links.self, server.url).pathname;
        const route = self ? itemRoutes.find((r) => r.matcher.test(self)) : undefined;
        if (route && !readPermissionOf.has(object.type)) readPermissionOf.set(object.type, route.permission);
      }
    };
    const routes: IncludeRoute[] = [];
    const withInclude = operations.filter((op) => op.method === 'GET' && op.queryParams.includes('include'));
    await eachLimited(withInclude, 4, async (op) => {
      const path = await matrix.resolver.path(op);
      const page = op.queryParams.includes('page[size]') ? 'page[size]=10&' : '';
      const plain = await matrix.admin(`${path}?${page}`, benignInit(op, true));
      if (plain.status !== 200) return void (await plain.body?.cancel());
      const { data } = resourcesOf(await plain.json());
      learn(data);
      const names = op.includeValues ?? [...new Set(data.flatMap((o) => Object.keys(o.relationships ?? {})))];
      // All at once first; a relationship that cannot be included (400) sends us through them one by one.
      const includeOf = async (names: string[]) => {
        const response = await matrix.admin(`${path}?${page}include=${names.join(',')}`, benignInit(op, true));
        if (response.status !== 200) {
          await response.body?.cancel();
          return false;
        }
        learn(resourcesOf(await response.json()).included);
        return true;
      };
      let include: string[] = [];
      if (names.length > 0 && (await includeOf(names))) include = names;
      else for (const name of names) if (await includeOf([name])) include.push(name);
      if (include.length > 0) routes.push({ op, path, page, include });
    });
    return { routes, readPermissionOf };
  })();
  return includeRoutes;
}

describe('include= of every relationship shows only what the role may read', () => {
  it('every included resource is of a type the evaluator lets the role read', { timeout: 600_000 }, async () => {
    const { routes, readPermissionOf } = await discoverIncludes();
    expect(routes.some((r) => r.op.path === '/api/claims/claims/')).toBe(true);
    const leaks: string[] = [];
    let includedSeen = 0;
    // Which types a role may include depends only on its permissions: roles the evaluator answers
    // alike (the adjuster and multi@ as Claims Adjuster) are asked once.
    const signatures = new Set<string>();
    const roles = DEMO_ROLES.filter((role) => {
      const signature = JSON.stringify([...matrix.allowed.get(role)!].sort());
      return !signatures.has(signature) && signatures.add(signature);
    });
    const work = routes.flatMap((route) => roles.map((role) => ({ route, role })));
    await eachLimited(work, 4, async ({ route, role }) => {
      const url = `${route.path}?${route.page}include=${route.include.join(',')}`;
      const response = await matrix.callers.get(role)!(url, benignInit(route.op, true));
      if (response.status !== 200) return void (await response.body?.cancel());
      const { included } = resourcesOf(await response.json());
      includedSeen += included.length;
      for (const type of new Set(included.map((o) => o.type))) {
        const permission = readPermissionOf.get(type);
        if (!permission) leaks.push(`${role.label}: GET ${url} includes '${type}', whose read route is unknown`);
        else if (!matrix.allowed.get(role)!.get(permissionKey(permission))) {
          leaks.push(`${role.label}: GET ${url} includes '${type}' though ${permissionKey(permission)} is denied`);
        }
      }
    });
    expect(includedSeen).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });
});

describe("an agent reads no claim outside the agent's own policies, on any read path", () => {
  const agentRole = DEMO_ROLES.find((r) => r.username === 'agent@agency.test')!;
  let agent: RoleFetch;
  let inScope: Set<string>;
  let foreign: { id: string; number: string };

  beforeAll(async () => {
    agent = matrix.callers.get(agentRole)!;
    const { rows } = await server.atrium.database.pool.query<{ id: number; number: string; own: boolean }>(
      // The claim's producer: copied from its policies-module policy (the demo's claims), else its
      // mock revision's (claims' own record-scope rule, as agent-record-scope.api.test.ts reads it).
      `SELECT c.id, c.number,
              (COALESCE(c.policy_agent_contact_id, r.agent_contact_id) = u.contact_id) IS TRUE AS own
         FROM claims.claim c LEFT JOIN claims.policy_revision r ON r.id = c.policy_revision_id,
              identity.user u WHERE u.username = $1`,
      [agentRole.username],
    );
    inScope = new Set(rows.filter((r) => r.own).map((r) => String(r.id)));
    const other = rows.find((r) => !r.own)!;
    foreign = { id: String(other.id), number: other.number };
    expect(inScope.size).toBeGreaterThan(0);
    expect(inScope.size).toBeLessThan(rows.length);
  });

  const claimIds = (objects: ResourceObject[]) => objects.filter((o) => o.type === 'claim').map((o) => o.id);
  const outOfScope = (ids: string[]) => ids.filter((id) => !inScope.has(id));

  it('the list and its count', async () => {
    const response = await agent('/api/claims/claims/?page[size]=250', {
      headers: { accept: 'application/vnd.api+json' },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: ResourceObject[]; meta: { count: number } };
    expect(outOfScope(claimIds(body.data))).toEqual([]);
    expect(body.meta.count).toBe(inScope.size);
  });

  it("quick search by another producer's claim number", async () => {
    const search = async (number: string) => {
      const query = new URLSearchParams({ 'filter[number]': number, 'page[number]': '1', 'page[size]': '50' });
      const response = await agent(`/api/claims/claims/?${query}`, { headers: { accept: 'application/vnd.api+json' } });
      expect(response.status).toBe(200);
      return claimIds(((await response.json()) as { data: ResourceObject[] }).data);
    };
    expect(await search(foreign.number)).toEqual([]);
    expect(outOfScope(await search(foreign.number.slice(0, 3)))).toEqual([]);
  });

  it('include= on every route that can include', { timeout: 300_000 }, async () => {
    const { routes } = await discoverIncludes();
    const leaks: string[] = [];
    await eachLimited(routes, 4, async (route) => {
      const url = `${route.path}?include=${route.include.join(',')}`;
      const response = await agent(url, benignInit(route.op, true));
      if (response.status !== 200) return void (await response.body?.cancel());
      const { data, included } = resourcesOf(await response.json());
      for (const id of outOfScope(claimIds([...data, ...included]))) leaks.push(`GET ${url} shows claim ${id}`);
    });
    expect(leaks).toEqual([]);
  });

  it("every GET under another producer's claim is 404 or 403", { timeout: 300_000 }, async () => {
    const underClaim = operations.filter(
      (op) => op.method === 'GET' && /^\/api\/claims\/claims\/\{[^}]+\}/.test(op.path),
    );
    expect(underClaim.length).toBeGreaterThan(3);
    const leaks: string[] = [];
    await eachLimited(underClaim, 4, async (op) => {
      const path = (await matrix.resolver.path(op)).replace(
        /^\/api\/claims\/claims\/[^/]+/,
        `/api/claims/claims/${foreign.id}`,
      );
      const response = await agent(path, benignInit(op, true));
      await response.body?.cancel();
      if (response.status !== 404 && response.status !== 403) leaks.push(`GET ${path} answered ${response.status}`);
    });
    expect(leaks).toEqual([]);
  });
});
