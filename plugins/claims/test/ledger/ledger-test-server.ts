import { createAccessPlugin } from '@atrium/plugin-access/server';
import { defineServerPlugin, provideService, type Principal } from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import contactsPlugin from '@atrium/plugin-contacts/server';
import claimsPlugin from '../../server/plugin.js';
import { claim, exposure, product } from '../../server/core/tables.js';
import { seedLedger } from '../../server/ledger/seed.js';

/**
 * A real server (fresh database) with the access module, the claims module and a stand-in for
 * identity: `Authorization: Bearer test:<user name>`; the access module's demo role assignments say
 * which roles a user holds (adjuster@atrium.test: Claims Adjuster, admin@atrium.test: Administrator).
 * The claims module's own demo seed is left out; tests create the claims they need and the ledger's
 * demo authority limits (seedLedger with no claims yet).
 */
const testIdentity = defineServerPlugin({
  id: 'test-identity',
  provides: {
    authenticator: (context) => ({
      async authenticate(request): Promise<Principal | null> {
        const header = request.headers.authorization;
        const match = typeof header === 'string' ? /^Bearer test:(.+)$/.exec(header) : null;
        if (!match) return null;
        const username = match[1]!;
        const roles = await context.services.roleDirectory!.rolesOf({ username, groups: [] });
        return { kind: 'user', subject: username, username, effectiveRole: roles[0] ?? null, roles, attributes: {} };
      },
    }),
    // Claims users are identity users: here everyone the tests name exists.
    services: [
      provideService(USER_DIRECTORY, () => ({
        findUsers: async (_tx, usernames: string[]) =>
          usernames.map((username) => ({
            username,
            name: username,
            email: username,
            phone: null,
            groups: [],
            enabled: true,
          })),
        searchUsers: async () => [],
      })),
    ],
  },
});

export const JSONAPI = 'application/vnd.api+json';

export interface Caller {
  get(path: string): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  patch(path: string, body: unknown): Promise<Response>;
  delete(path: string): Promise<Response>;
}

export interface LedgerTestServer extends TestServer {
  as(username: string): Caller;
  admin: Caller;
  adjuster: Caller;
  /** A claim (status open) with `exposures` exposures; answers their ids. */
  createClaim(exposures?: number): Promise<{ claimId: number; exposureIds: number[] }>;
}

let claimCounter = 0;

export async function startLedgerServer(options: { demo?: boolean } = {}): Promise<LedgerTestServer> {
  // Without `demo` the claims module's own demo seed (60 claims) is left out; the ledger's authority
  // limits are seeded alone.
  const claims = options.demo ? claimsPlugin : { ...claimsPlugin, seed: undefined };
  const server = await startTestServer({
    // Claims' contacts are the contact store's (contacts.records).
    plugins: [createAccessPlugin(), testIdentity, contactsPlugin, claims],
    template: options.demo ? 'ledger-test-identity-demo' : 'ledger-test-identity',
  });
  const db = server.atrium.database.db;
  if (!options.demo) await db.transaction((tx) => seedLedger(tx));
  const [prod] = await db.insert(product).values({ name: 'ledger-test', label: 'Ledger test' }).returning();
  const as = (username: string): Caller => {
    const headers = { authorization: `Bearer test:${username}`, accept: JSONAPI };
    const json =
      (method: string) =>
      (path: string, body: unknown, extra: Record<string, string> = {}) =>
        server.fetch(path, {
          method,
          body: JSON.stringify(body),
          headers: { ...headers, 'content-type': JSONAPI, ...extra },
        });
    return {
      get: (path) => server.fetch(path, { headers }),
      delete: (path) => server.fetch(path, { method: 'DELETE', headers }),
      post: json('POST'),
      patch: json('PATCH'),
    };
  };
  return Object.assign(server, {
    as,
    admin: as('admin@atrium.test'),
    adjuster: as('adjuster@atrium.test'),
    async createClaim(count = 2) {
      claimCounter++;
      const [c] = await db
        .insert(claim)
        .values({
          number: `LT-${Date.now()}-${claimCounter}`,
          status: 'open',
          productId: prod!.id,
          createdBy: 'adjuster@atrium.test',
        })
        .returning();
      const rows = await db
        .insert(exposure)
        .values(
          Array.from({ length: count }, (_, i) => ({
            claimId: c!.id,
            number: i + 1,
            exposureName: `Exposure ${i + 1}`,
          })),
        )
        .returning();
      return { claimId: c!.id, exposureIds: rows.map((r) => r.id) };
    },
  });
}

export const reserveDoc = (exposureId: number, attributes: Record<string, unknown>) => ({
  data: {
    type: 'reserves',
    attributes,
    relationships: { exposure: { data: { type: 'exposures', id: String(exposureId) } } },
  },
});
export const paymentDoc = (exposureId: number, attributes: Record<string, unknown>) => ({
  data: {
    type: 'payments',
    attributes,
    relationships: { exposure: { data: { type: 'exposures', id: String(exposureId) } } },
  },
});
export const recoveryDoc = (exposureId: number, attributes: Record<string, unknown>) => ({
  data: {
    type: 'recoveries',
    attributes,
    relationships: { exposure: { data: { type: 'exposures', id: String(exposureId) } } },
  },
});
export const voidDoc = (type: string, reason: string) => ({ data: { type, attributes: { void_reason: reason } } });

export interface Financials {
  reserve_outstanding: string;
  paid: string;
  recovered: string;
  total_incurred: string;
  net_paid: string;
  net_incurred: string;
  pending_approval_count: number;
  exposures: (Omit<Financials, 'exposures' | 'pending_approval_count'> & {
    exposure_id: string;
    categories: ({ reserve_category: string } & Omit<Financials, 'exposures' | 'pending_approval_count'>)[];
  })[];
}

export async function financialsOf(caller: Caller, claimId: number): Promise<Financials> {
  const response = await caller.get(`/api/claims/claims/${claimId}/financials/`);
  if (response.status !== 200) throw new Error(`financials ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { attributes: Financials } }).data.attributes;
}
