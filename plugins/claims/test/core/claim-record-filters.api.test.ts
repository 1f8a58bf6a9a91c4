import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detailOf, doc, startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * Record conditions on lists: a role whose policy lets its users read their own claims and the claims
 * of one loss state, but never a closed one. The claim list (and its count and pages), the quick
 * search, one claim and the exposure list must all agree with what the evaluator allows per record.
 */
const ROLE = 'Own Claims Reader';
const USER = 'underwriter@atrium.test';
const STATE = 'WY';

let server: ClaimsTestServer;
let adjuster: Caller;
let reader: Caller;

interface ClaimResource {
  id: string;
  attributes: {
    number: string;
    status: string;
    primary_adjuster: string | null;
    loss_location: { state: string } | null;
  };
}
interface ExposureResource {
  id: string;
  relationships: { claim: { data: { id: string } } };
}

async function createClaim(attributes: Record<string, unknown>, submit: boolean): Promise<string> {
  const created = await adjuster('POST', '/claims/', doc('claim', { loss_description: 'Hail', ...attributes }));
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  if (submit) {
    const submitted = await adjuster('POST', `/claims/${id}/submit/`, { data: { type: 'claim', id, attributes: {} } });
    expect(submitted.status).toBe(200);
  }
  return id;
}

async function allPages<T>(caller: Caller, path: string, size = 250): Promise<{ data: T[]; counts: number[] }> {
  const data: T[] = [];
  const counts: number[] = [];
  for (let page = 1; ; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const response = await caller('GET', `${path}${separator}page[number]=${page}&page[size]=${size}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: T[]; meta: { count: number; pages: number } };
    data.push(...body.data);
    counts.push(body.meta.count);
    if (page >= body.meta.pages) break;
  }
  return { data, counts };
}

/** What the policy allows, decided in the test from the claims as a full-access adjuster reads them. */
const visible = (c: ClaimResource) =>
  c.attributes.status !== 'closed' &&
  (c.attributes.primary_adjuster === USER || c.attributes.loss_location?.state === STATE);

const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  await server.grantRole(ROLE, USER, {
    name: 'Own claims and Wyoming, never closed ones',
    statements: [
      {
        sid: 'own',
        effect: 'allow',
        actions: ['read'],
        resources: ['claims:claim'],
        conditions: [{ attribute: 'record.primary_adjuster', operator: 'eq', value: { ref: 'user.username' } }],
      },
      {
        sid: 'wyoming',
        effect: 'allow',
        actions: ['read'],
        resources: ['claims:claim'],
        conditions: [{ attribute: 'record.loss_state', operator: 'eq', value: STATE }],
      },
      { sid: 'exposures', effect: 'allow', actions: ['read'], resources: ['claims:exposure'] },
      // Updating one's own claims makes the user a claims user, so claims can name them primary adjuster.
      {
        sid: 'ownUpdate',
        effect: 'allow',
        actions: ['update'],
        resources: ['claims:claim'],
        conditions: [{ attribute: 'record.primary_adjuster', operator: 'eq', value: { ref: 'user.username' } }],
      },
      {
        sid: 'closed',
        effect: 'deny',
        actions: ['read'],
        resources: ['claims:claim'],
        conditions: [{ attribute: 'record.status', operator: 'eq', value: 'closed' }],
      },
    ],
  });
  const claimant = [{ claimant_name: 'Pat Neighbor', coverage: 'Liability', description: 'Dent' }];
  const lossIn = (state: string) => ({ line1: '1 Elm St', city: 'Town', state, zip: '82001' });
  ids.own = await createClaim({ primary_adjuster: USER }, false);
  ids.ownToo = await createClaim({ primary_adjuster: USER }, false);
  ids.ownOpen = await createClaim(
    { primary_adjuster: USER, date_of_loss: '2026-10-01', loss_location: lossIn('CO'), claimants: claimant },
    true,
  );
  ids.wyoming = await createClaim(
    { date_of_loss: '2026-10-01', loss_location: lossIn(STATE), claimants: claimant },
    true,
  );
  ids.colorado = await createClaim(
    {
      primary_adjuster: 'adjuster@atrium.test',
      date_of_loss: '2026-10-01',
      loss_location: lossIn('CO'),
      claimants: claimant,
    },
    true,
  );
  ids.unassigned = await createClaim({}, false);
  ids.closed = await createClaim({ primary_adjuster: USER, date_of_loss: '2026-10-01' }, true);
  const closed = await adjuster('PATCH', `/claims/${ids.closed}/`, {
    data: { type: 'claim', id: ids.closed, attributes: { status: 'closed', status_change_reason: 'Claim Paid' } },
  });
  expect(closed.status).toBe(200);
  // Signed in after the role assignment; every call acts in the new role.
  const underwriter = await server.as(USER);
  reader = (method, path, body, headers = {}) =>
    underwriter(method, path, body, { 'x-effective-role': ROLE, ...headers });
}, 180_000);
afterAll(async () => server?.close());

describe('record conditions on the claim list', () => {
  it('lists exactly the claims the policy allows, with a count to match', async () => {
    const everything = await allPages<ClaimResource>(adjuster, '/claims/');
    const expected = everything.data.filter(visible).map((c) => c.id);
    expect(expected).toEqual(expect.arrayContaining([ids.own, ids.ownToo, ids.ownOpen, ids.wyoming]));
    for (const hidden of [ids.colorado, ids.unassigned, ids.closed]) expect(expected).not.toContain(hidden);

    const listed = await allPages<ClaimResource>(reader, '/claims/');
    expect(listed.data.map((c) => c.id)).toEqual(expected);
    expect(listed.counts).toEqual([expected.length]);
  });

  it('keeps pages consistent: every page has the same count and together they are the list', async () => {
    const whole = (await allPages<ClaimResource>(reader, '/claims/')).data.map((c) => c.id);
    const paged = await allPages<ClaimResource>(reader, '/claims/', 2);
    expect(paged.data.map((c) => c.id)).toEqual(whole);
    expect(new Set(paged.counts)).toEqual(new Set([whole.length]));
    expect(paged.counts.length).toBe(Math.ceil(whole.length / 2));
  });

  it('filters and the record conditions both apply (the quick search too)', async () => {
    const mine = await allPages<ClaimResource>(reader, `/claims/?filter[primary_adjuster]=${USER}`);
    expect(mine.data.map((c) => c.id).sort()).toEqual([ids.own, ids.ownToo, ids.ownOpen].sort());
    const hiddenNumber = ((await (await adjuster('GET', `/claims/${ids.colorado}/`)).json()) as { data: ClaimResource })
      .data.attributes.number;
    const search = await reader('GET', `/claims/?filter[number]=${hiddenNumber}&page[size]=5`);
    expect(((await search.json()) as { data: unknown[] }).data).toEqual([]);
    const visibleNumber = ((await (await reader('GET', `/claims/${ids.wyoming}/`)).json()) as { data: ClaimResource })
      .data.attributes.number;
    const found = await reader('GET', `/claims/?filter[number]=${visibleNumber}&page[size]=5`);
    expect(((await found.json()) as { data: ClaimResource[] }).data.map((c) => c.id)).toEqual([ids.wyoming]);
  });

  it('answers 404 for one hidden claim, as for a missing one', async () => {
    for (const hidden of [ids.colorado, ids.unassigned, ids.closed]) {
      const response = await reader('GET', `/claims/${hidden}/`);
      expect(response.status).toBe(404);
      expect(await detailOf(response)).toBe(`Claim ${hidden} not found.`);
    }
    expect((await reader('GET', `/claims/${ids.own}/`)).status).toBe(200);
  });

  it('lists only the exposures of claims the caller may read', async () => {
    const claims = (await allPages<ClaimResource>(adjuster, '/claims/')).data;
    const readable = new Set(claims.filter(visible).map((c) => c.id));
    const all = (await allPages<ExposureResource>(adjuster, '/exposures/')).data;
    const expected = all.filter((e) => readable.has(e.relationships.claim.data.id)).map((e) => e.id);
    const owners = (list: ExposureResource[]) => new Set(list.map((e) => e.relationships.claim.data.id));
    expect(owners(all)).toContain(ids.colorado);

    const listed = await allPages<ExposureResource>(reader, '/exposures/');
    expect(listed.data.map((e) => e.id)).toEqual(expected);
    expect(listed.counts).toEqual([expected.length]);
    expect(owners(listed.data)).toContain(ids.ownOpen);
    expect(owners(listed.data)).toContain(ids.wyoming);
    expect(owners(listed.data)).not.toContain(ids.colorado);
    const ofHidden = await reader('GET', `/exposures/?filter[claim_id]=${ids.colorado}`);
    expect(((await ofHidden.json()) as { data: unknown[]; meta: { count: number } }).meta.count).toBe(0);
  });

  it('leaves a role without record conditions its whole list', async () => {
    const all = await allPages<ClaimResource>(adjuster, '/claims/');
    expect(all.data.map((c) => c.id)).toEqual(expect.arrayContaining(Object.values(ids)));
    expect(all.counts).toEqual([all.data.length]);
  });
});
