import { isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listClaims } from '../../server/core/claim-list-query.js';
import { claim } from '../../server/core/tables.js';
import { startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * The claim list query (P2): filters on the loss location in any case (served by the expression
 * indexes), the exact total whether it comes from the page or from the count statement, and the
 * access filter ANDed into both.
 */
let server: ClaimsTestServer;
let adjuster: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

interface ListDocument {
  data: { id: string; attributes: { loss_location: { city: string; state: string } | null } }[];
  links: { next: string | null; last: string };
  meta: { count: number; pages: number };
}
const list = async (path: string) => {
  const response = await adjuster('GET', path);
  expect(response.status).toBe(200);
  return (await response.json()) as ListDocument;
};
const ids = (document: ListDocument) => document.data.map((c) => c.id);

describe('claim list query', () => {
  it('filters the loss state and city in any case', async () => {
    const upper = await list('/claims/?loss_state=IL&page[size]=1000');
    expect(upper.data.length).toBeGreaterThan(0);
    expect(upper.data.every((c) => c.attributes.loss_location?.state.toUpperCase() === 'IL')).toBe(true);
    expect(ids(await list('/claims/?loss_state=il&page[size]=1000'))).toEqual(ids(upper));
    expect(ids(await list('/claims/?filter[loss_state]=Il&page[size]=1000'))).toEqual(ids(upper));
    const city = await list('/claims/?loss_city=CHICAGO&page[size]=1000');
    expect(city.data.length).toBeGreaterThan(0);
    expect(city.data.every((c) => c.attributes.loss_location?.city.toLowerCase() === 'chicago')).toBe(true);
    expect(ids(await list('/claims/?loss_city=chicago&page[size]=1000'))).toEqual(ids(city));
  });

  it('gives the exact total whether the page tells it or the count statement does', async () => {
    const whole = await list('/claims/?status=open&page[size]=1000');
    const n = whole.data.length;
    expect(n).toBeGreaterThan(4);
    expect(whole.meta).toEqual({ count: n, pages: 1 });
    const pages = Math.ceil(n / 2);
    const first = await list('/claims/?status=open&page[size]=2');
    expect(first.meta).toEqual({ count: n, pages });
    expect(first.links.next).toContain('page%5Bnumber%5D=2');
    const last = await list(`/claims/?status=open&page[size]=2&page[number]=${pages}`);
    expect(last.meta).toEqual({ count: n, pages });
    expect(last.links.next).toBeNull();
    expect([...ids(first), ...ids(last)]).toEqual(
      expect.arrayContaining([...ids(whole).slice(0, 2), ...ids(whole).slice((pages - 1) * 2)]),
    );
    const beyond = await list(`/claims/?status=open&page[size]=2&page[number]=${pages + 3}`);
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toEqual({ count: n, pages });
    const none = await list('/claims/?claim_number=NO-SUCH-CLAIM');
    expect(none.data).toEqual([]);
    expect(none.meta).toEqual({ count: 0, pages: 1 });
  });

  it('ANDs the access filter into the page and the count', async () => {
    const db = server.atrium.database.db;
    const all = await listClaims(db, { query: { status: 'open' }, page: { number: 1, size: 1000, offset: 0 } });
    const unassigned = all.rows.filter((r) => r.primaryAdjuster === null);
    expect(unassigned.length).toBeGreaterThan(1);
    expect(unassigned.length).toBeLessThan(all.rows.length);
    const accessFilter = isNull(claim.primaryAdjuster);
    const page = await listClaims(db, {
      query: { status: 'open' },
      page: { number: 1, size: 1, offset: 0 },
      accessFilter,
    });
    expect(page.total).toBe(unassigned.length);
    expect(page.rows.map((r) => r.id)).toEqual([unassigned[0]!.id]);
    expect(page.locations.map((l) => l.id)).toEqual(
      unassigned[0]!.lossLocationId ? [unassigned[0]!.lossLocationId] : [],
    );
    const inState = await listClaims(db, {
      query: { loss_state: 'il' },
      page: { number: 1, size: 1, offset: 0 },
      accessFilter,
    });
    const expected = await listClaims(db, { query: { loss_state: 'IL' }, page: { number: 1, size: 1000, offset: 0 } });
    expect(inState.total).toBe(expected.rows.filter((r) => r.primaryAdjuster === null).length);
  });
});
