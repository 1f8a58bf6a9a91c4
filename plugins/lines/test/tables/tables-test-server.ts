import type { AccessEvaluator, Authenticator, Database, Principal } from '@atrium/sdk/server';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import linesPlugin from '../../server/plugin.js';
import { line, product, productVersion, riskField, riskItem, riskType } from '../../server/tables.js';

/**
 * A real server with the lines module on a fresh database. Callers: `Bearer test:<name>`; the
 * stand-in evaluator lets `builder` do everything on `lines:*` and `viewer` only read.
 */
const authenticator: Authenticator = {
  async authenticate(request) {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer test:(.+)$/.exec(header) : null;
    if (!match) return null;
    const username = match[1]!;
    return {
      kind: 'user',
      subject: username,
      username,
      effectiveRole: username,
      roles: [username],
    } satisfies Principal;
  },
};
const evaluator: AccessEvaluator = {
  evaluate(principal, request) {
    if (principal.username === 'builder') return { allowed: true };
    if (principal.username === 'viewer') return { allowed: request.action === 'read' };
    return { allowed: false, reason: 'no-role-assignment' };
  },
};

export interface Caller {
  get(path: string): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
  put(path: string, body: unknown): Promise<Response>;
  patch(path: string, body: unknown): Promise<Response>;
  delete(path: string): Promise<Response>;
  send(method: string, path: string, init?: { body?: BodyInit; headers?: Record<string, string> }): Promise<Response>;
}

export interface TablesTestServer extends TestServer {
  db: Database;
  as(username: string | null): Caller;
  builder: Caller;
}

export async function startTablesServer(): Promise<TablesTestServer> {
  const server = await startTestServer({
    plugins: [linesPlugin],
    access: { authenticator, evaluator },
    seed: 'never',
    // Migrated, unseeded: the same database every time, so it is copied from a template.
    template: 'lines-tables',
  });
  const as = (username: string | null): Caller => {
    const headers: Record<string, string> = username ? { authorization: `Bearer test:${username}` } : {};
    const send: Caller['send'] = (method, path, init = {}) =>
      server.fetch(path, { method, body: init.body, headers: { ...headers, ...init.headers } });
    const json = (method: string) => (path: string, body: unknown) =>
      send(method, path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return {
      send,
      get: (path) => send('GET', path),
      delete: (path) => send('DELETE', path),
      post: json('POST'),
      put: json('PUT'),
      patch: json('PATCH'),
    };
  };
  return Object.assign(server, {
    db: server.atrium.database.db as unknown as Database,
    as,
    builder: as('builder'),
  });
}

export interface Fixture {
  lineId: number;
  productId: number;
  /** Version 1, published. */
  publishedId: number;
  /** Version 2, a draft copied from version 1. */
  draftId: number;
  /** Risk type ids by name in the draft / the published version. */
  draftTypes: Record<string, number>;
  publishedTypes: Record<string, number>;
  draftItems: Record<string, number>;
}

let counter = 0;

/**
 * A product with a published version 1 and a draft version 2. Version 2 differs from 1: field
 * `roof_year` is added, `year_built` changed its default, `occupancy` gained an option and item
 * `theft` is removed while `water_backup` is added.
 */
export async function createFixture(db: Database): Promise<Fixture> {
  const n = ++counter;
  const [l] = await db
    .insert(line)
    .values({ name: `homeowners_${n}`, label: 'Homeowners' })
    .returning();
  const [p] = await db
    .insert(product)
    .values({ lineId: l!.id, name: `ho3_${n}`, label: `HO-3 ${n}` })
    .returning();
  const [v1] = await db
    .insert(productVersion)
    .values({ productId: p!.id, number: 1, label: '2026.1', status: 'published', effectiveDate: '2026-01-01' })
    .returning();
  const [v2] = await db
    .insert(productVersion)
    .values({
      productId: p!.id,
      number: 2,
      label: '2026.2',
      status: 'draft',
      effectiveDate: '2026-07-01',
      copiedFromVersionId: v1!.id,
    })
    .returning();
  const types = async (versionId: number, draft: boolean) => {
    const [home] = await db
      .insert(riskType)
      .values({ productVersionId: versionId, name: 'home', label: 'Home' })
      .returning();
    const [article] = await db
      .insert(riskType)
      .values({ productVersionId: versionId, name: 'scheduled_article', label: 'Article', parentRiskTypeId: home!.id })
      .returning();
    await db.insert(riskField).values([
      { productVersionId: versionId, riskTypeId: home!.id, name: 'zip', label: 'ZIP', type: 'string', order: 1 },
      {
        productVersionId: versionId,
        riskTypeId: home!.id,
        name: 'year_built',
        label: 'Year built',
        type: 'number',
        order: 2,
        defaultValue: draft ? '1990' : '1980',
      },
      {
        productVersionId: versionId,
        riskTypeId: home!.id,
        name: 'occupancy',
        label: 'Occupancy',
        type: 'enum',
        order: 3,
        options: draft
          ? [{ value: 'owner' }, { value: 'tenant' }, { value: 'seasonal' }]
          : [{ value: 'owner' }, { value: 'tenant' }],
      },
      { productVersionId: versionId, riskTypeId: article!.id, name: 'value', label: 'Value', type: 'number', order: 1 },
      ...(draft
        ? [
            {
              productVersionId: versionId,
              riskTypeId: home!.id,
              name: 'roof_year',
              label: 'Roof year',
              type: 'number' as const,
              order: 4,
            },
          ]
        : []),
    ]);
    const items = await db
      .insert(riskItem)
      .values([
        {
          productVersionId: versionId,
          riskTypeId: home!.id,
          name: 'dwelling',
          label: 'Dwelling',
          presence: 'required' as const,
        },
        draft
          ? { productVersionId: versionId, riskTypeId: home!.id, name: 'water_backup', label: 'Water backup' }
          : { productVersionId: versionId, riskTypeId: home!.id, name: 'theft', label: 'Theft' },
      ])
      .returning();
    return {
      types: { home: home!.id, scheduled_article: article!.id },
      items: Object.fromEntries(items.map((i) => [i.name, i.id])),
    };
  };
  const published = await types(v1!.id, false);
  const draft = await types(v2!.id, true);
  return {
    lineId: l!.id,
    productId: p!.id,
    publishedId: v1!.id,
    draftId: v2!.id,
    draftTypes: draft.types,
    publishedTypes: published.types,
    draftItems: draft.items,
  };
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
