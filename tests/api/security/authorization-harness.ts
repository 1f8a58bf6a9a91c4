import { signIn, type TestServer } from '@atrium/sdk/testing';
import { loadOperations, type Operation } from './fuzz-harness.js';

/**
 * The authorization matrix (issue 14): every operation of the OpenAPI document that declares a
 * permission (`x-atrium-access`, emitted from the same `config.access` the route is checked
 * against) is called as every demo role, and the answer is compared with what the access evaluator
 * (`POST /api/access/evaluations`, as the same caller) says about that permission: denied ⇒ 403,
 * allowed ⇒ anything but 403. For routes with `include=`, every included resource must be of a
 * type the caller may read (its read permission found through the route its `links.self` names).
 */

export type Permission = { resource: string; action: string };

export interface Role {
  /** How the failure names it, e.g. `multi@atrium.test as Underwriter`. */
  label: string;
  username: string;
  /** Sent as `x-effective-role` (users with several roles choose one). */
  effectiveRole?: string;
}

/** Every demo account that signs in with a password alone, and each role of the one with several. */
export const DEMO_ROLES: Role[] = [
  { label: 'Administrator', username: 'admin@atrium.test' },
  { label: 'Claims Adjuster', username: 'adjuster@atrium.test' },
  { label: 'Claims Supervisor', username: 'supervisor@atrium.test' },
  { label: 'Underwriter', username: 'underwriter@atrium.test' },
  { label: 'Product and Rules Author', username: 'author@atrium.test' },
  { label: 'Agent', username: 'agent@agency.test' },
  { label: 'Agency', username: 'agency@agency.test' },
  { label: 'multi@atrium.test as Claims Adjuster', username: 'multi@atrium.test', effectiveRole: 'Claims Adjuster' },
  { label: 'multi@atrium.test as Underwriter', username: 'multi@atrium.test', effectiveRole: 'Underwriter' },
  // Two roles and none chosen: no effective role, so every permission is refused.
  { label: 'multi@atrium.test without a chosen role', username: 'multi@atrium.test' },
];

export const permissionKey = (p: Permission) => `${p.resource} ${p.action}`;

/** A caller: fetch as the role, with its token and effective role. */
export type RoleFetch = (path: string, init?: RequestInit) => Promise<Response>;

export async function roleFetch(server: TestServer, role: Role): Promise<RoleFetch> {
  const token = await signIn(server, role.username);
  return (path, init = {}) =>
    server.fetch(path, {
      ...init,
      headers: {
        accept: 'application/json',
        ...(init.headers as Record<string, string>),
        authorization: `Bearer ${token}`,
        ...(role.effectiveRole ? { 'x-effective-role': role.effectiveRole } : {}),
      },
    });
}

/** The evaluator's answer, for this caller, to each permission. */
export async function evaluate(call: RoleFetch, permissions: Permission[]): Promise<Map<string, boolean>> {
  const answers = new Map<string, boolean>();
  for (let start = 0; start < permissions.length; start += 1000) {
    const batch = permissions.slice(start, start + 1000);
    const response = await call('/api/access/evaluations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requests: batch }),
    });
    if (response.status !== 200) throw new Error(`evaluations answered ${response.status}: ${await response.text()}`);
    const { results } = (await response.json()) as { results: { evaluation: { allowed: boolean } }[] };
    batch.forEach((permission, i) => answers.set(permissionKey(permission), results[i]!.evaluation.allowed));
  }
  return answers;
}

/** An id that no seeded record has: writes are sent to it so that no route changes real data. */
export const ABSENT_ID = '2147483646';

type Listing = { data?: unknown; results?: unknown; items?: unknown };

function firstId(body: unknown): string | undefined {
  const list = Array.isArray(body)
    ? body
    : [(body as Listing)?.data, (body as Listing)?.results, (body as Listing)?.items].find(Array.isArray);
  const first = (list as { id?: unknown; code?: unknown; name?: unknown }[] | undefined)?.[0];
  const id = first?.id ?? first?.code;
  return id === undefined || id === null ? undefined : String(id);
}

/**
 * Real ids for a GET route's path parameters, each taken from the listing its path prefix names as
 * the administrator (`/api/claims/claims/{id}/notes/{note}` lists `/api/claims/claims/`, then
 * `/api/claims/claims/<id>/notes/`); `1` where no listing answers.
 */
export class IdResolver {
  private listings = new Map<string, Promise<string | undefined>>();
  constructor(private readonly admin: RoleFetch) {}

  private first(prefix: string): Promise<string | undefined> {
    let answer = this.listings.get(prefix);
    if (!answer) {
      answer = this.admin(prefix)
        .then(async (response) => (response.ok ? firstId(await response.json().catch(() => undefined)) : undefined))
        .catch(() => undefined);
      this.listings.set(prefix, answer);
    }
    return answer;
  }

  async path(operation: Operation): Promise<string> {
    let path = operation.path;
    for (const name of operation.pathParams) {
      const placeholder = `{${name}}`;
      const prefix = path.slice(0, path.indexOf(placeholder));
      const id = operation.method === 'GET' ? ((await this.first(prefix)) ?? '1') : ABSENT_ID;
      path = path.replace(placeholder, encodeURIComponent(id));
    }
    return path;
  }
}

/**
 * A request that runs the route's permission check and nothing that changes data: reads as they
 * are; writes to an absent id with a body that is not JSON, refused by the parser — which runs
 * after the permission check (access-control.ts checks in onRequest, before the body is read).
 */
export function benignInit(operation: Operation, jsonapi = false): RequestInit {
  if (operation.method === 'GET') {
    return { headers: { accept: jsonapi ? 'application/vnd.api+json' : 'application/json' } };
  }
  const type = jsonapi ? 'application/vnd.api+json' : 'application/json';
  return { method: operation.method, headers: { accept: type, 'content-type': type }, body: '{"authz":' };
}

/** `/api/claims/parties/{id}/` → a matcher of concrete paths. */
export function pathMatcher(template: string): RegExp {
  const pattern = template
    .replace(/\/$/, '')
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}/?$`);
}

export interface ResourceObject {
  type: string;
  id: string;
  links?: { self?: string };
  relationships?: Record<string, unknown>;
}

export function resourcesOf(body: unknown): { data: ResourceObject[]; included: ResourceObject[] } {
  const document = body as { data?: ResourceObject | ResourceObject[]; included?: ResourceObject[] } | undefined;
  const data = document?.data;
  return {
    data: Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [],
    included: Array.isArray(document?.included) ? document.included : [],
  };
}

/** Runs `work` over `items`, `concurrency` at a time. */
export async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The signed-in roles, the evaluator's answers for each and the guarded operations of a server. */
export interface Matrix {
  operations: (Operation & { access: Permission })[];
  admin: RoleFetch;
  resolver: IdResolver;
  callers: Map<Role, RoleFetch>;
  /** Per role, `permissionKey` → allowed. */
  allowed: Map<Role, Map<string, boolean>>;
}

export async function prepareMatrix(server: TestServer): Promise<Matrix> {
  const operations = (await loadOperations(server)).filter(
    (op): op is Operation & { access: Permission } => typeof op.access === 'object',
  );
  const admin = await roleFetch(server, DEMO_ROLES[0]!);
  const permissions = [...new Map(operations.map((op) => [permissionKey(op.access), op.access])).values()];
  const callers = new Map<Role, RoleFetch>();
  const allowed = new Map<Role, Map<string, boolean>>();
  await Promise.all(
    DEMO_ROLES.map(async (role) => {
      const call = await roleFetch(server, role);
      callers.set(role, call);
      allowed.set(role, await evaluate(call, permissions));
    }),
  );
  return { operations, admin, resolver: new IdResolver(admin), callers, allowed };
}

/** A route answers 415 (or 406) when it speaks JSON:API only: then it gets what it takes. */
export async function sendBenign(call: RoleFetch, path: string, op: Operation): Promise<Response> {
  const response = await call(path, benignInit(op));
  if (response.status !== 415 && response.status !== 406) return response;
  await response.body?.cancel();
  return call(path, benignInit(op, true));
}

/**
 * Calls each operation as each demo role and answers every disagreement with the evaluator
 * (denied but not 403, allowed but 401/403), and a status summary to show what was met.
 */
export async function matrixMismatches(
  matrix: Matrix,
  operations: (Operation & { access: Permission })[],
): Promise<{ mismatches: string[]; summary: string }> {
  const paths = new Map<Operation, string>();
  await eachLimited(operations, 4, async (op) => void paths.set(op, await matrix.resolver.path(op)));
  const work = operations.flatMap((op) => DEMO_ROLES.map((role) => ({ op, path: paths.get(op)!, role })));
  const mismatches: string[] = [];
  const statuses = new Map<number, number>();
  await eachLimited(work, 4, async ({ op, path, role }) => {
    const response = await sendBenign(matrix.callers.get(role)!, path, op);
    await response.body?.cancel();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const may = matrix.allowed.get(role)!.get(permissionKey(op.access));
    const where = `${role.label}: ${op.method} ${path} (${permissionKey(op.access)})`;
    if (!may && response.status !== 403)
      mismatches.push(`${where} — evaluator denies, route answered ${response.status}`);
    if (may && (response.status === 403 || response.status === 401)) {
      mismatches.push(`${where} — evaluator allows, route answered ${response.status}`);
    }
  });
  const summary = `${operations.length} operations × ${DEMO_ROLES.length} roles; ${[...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ')}`;
  return { mismatches, summary };
}
