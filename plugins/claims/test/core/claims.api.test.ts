import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

let server: ClaimsTestServer;
let adjuster: Caller;
let underwriter: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  underwriter = await server.as('underwriter@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

const createDraft = async (attributes: Record<string, unknown> = {}) => {
  const response = await adjuster(
    'POST',
    '/claims/',
    doc('claim', { loss_description: 'Kitchen fire', ...attributes }),
  );
  expect(response.status).toBe(201);
  return { body: await response.json(), etag: response.headers.get('etag')! };
};

describe('FNOL drafts and claim numbers', () => {
  it('creates a draft numbered from the carrier prefix and a sequence', async () => {
    const a = await createDraft();
    const b = await createDraft();
    expect(a.body.data.attributes.status).toBe('draft');
    expect(a.body.data.attributes.number).toMatch(/^CLM-\d{6}$/);
    const n = (x: typeof a) => Number(x.body.data.attributes.number.slice(4));
    expect(n(b)).toBe(n(a) + 1);
    expect(a.etag).toBe(`"claim-${a.body.data.id}-v1"`);
  });

  it('refuses a new claim that is not a draft, unknown attributes and unknown perils with pointers', async () => {
    const open = await adjuster('POST', '/claims/', doc('claim', { status: 'open' }));
    expect(open.status).toBe(400);
    expect(await pointersOf(open)).toEqual(['/data/attributes/status']);
    const unknown = await adjuster('POST', '/claims/', doc('claim', { nonsense: 1 }));
    expect(unknown.status).toBe(400);
    expect(await pointersOf(unknown)).toContain('/data/attributes/nonsense');
    const peril = await adjuster('POST', '/claims/', doc('claim', { perils: ['Meteor'] }));
    expect(peril.status).toBe(400);
    expect(await pointersOf(peril)).toEqual(['/data/attributes/perils']);
  });

  it('loads an FNOL by number: the draft first, else any claim with that number', async () => {
    const { body } = await createDraft();
    const number = body.data.attributes.number;
    const found = await adjuster('GET', `/claims/fnol/${number}/`);
    expect(found.status).toBe(200);
    expect((await found.json()).data.id).toBe(body.data.id);
    const submittedList = await (await adjuster('GET', '/claims/?status=open&page[size]=1')).json();
    const openNumber = submittedList.data[0].attributes.number;
    const open = await adjuster('GET', `/claims/fnol/${openNumber}/`);
    expect(open.status).toBe(200);
    expect((await open.json()).data.attributes.status).toBe('open');
    const missing = await adjuster('GET', '/claims/fnol/NOPE-1/');
    expect(missing.status).toBe(404);
    expect(await detailOf(missing)).toBe('FNOL NOPE-1 not found.');
    const claimMissing = await adjuster('GET', '/claims/by-number/NOPE-2/');
    expect(await detailOf(claimMissing)).toBe('Claim NOPE-2 not found.');
    const exposureMissing = await adjuster('GET', `/claims/by-number/${openNumber}/exposures/99/`);
    expect(exposureMissing.status).toBe(404);
    expect(await detailOf(exposureMissing)).toBe('Exposure 99 not found.');
  });
});

describe('statuses, ETags and the audit log', () => {
  it('submits a draft (draft → open), making its claimants parties with exposures', async () => {
    const { body, etag } = await createDraft({
      date_of_loss: '2026-10-01',
      perils: ['Fire'],
      loss_location: { line1: '1 Elm St', city: 'Denver', state: 'CO', zip: '80202' },
      claimants: [{ claimant_name: 'Pat Neighbor', coverage: 'Liability', description: 'Smoke damage' }],
    });
    const id = body.data.id;
    const submitted = await adjuster(
      'POST',
      `/claims/${id}/submit/`,
      { data: { type: 'claim', id, attributes: {} } },
      { 'if-match': etag },
    );
    expect(submitted.status).toBe(200);
    const claim = await submitted.json();
    expect(claim.data.attributes.status).toBe('open');
    expect(claim.data.attributes.perils).toEqual(['Fire']);
    expect(claim.data.attributes.loss_location.city).toBe('Denver');
    expect(claim.data.relationships.exposures.data).toHaveLength(1);
    const audit = await (await adjuster('GET', `/audit-log/?claim_id=${id}`)).json();
    const move = audit.data.find((e: any) => e.attributes.action === 'status');
    expect(move.attributes).toMatchObject({
      from_status: 'draft',
      to_status: 'open',
      username: 'adjuster@atrium.test',
    });
  });

  it('refuses submitting without a date of loss, an illegal move, and closing without a reason (400)', async () => {
    const { body } = await createDraft();
    const id = body.data.id;
    const noDate = await adjuster('POST', `/claims/${id}/submit/`, { data: { type: 'claim', id, attributes: {} } });
    expect(noDate.status).toBe(400);
    expect(await pointersOf(noDate)).toEqual(['/data/attributes/date_of_loss']);
    const illegal = await adjuster('PATCH', `/claims/${id}/`, {
      data: { type: 'claim', id, attributes: { status: 'closed', status_change_reason: 'x' } },
    });
    expect(illegal.status).toBe(400);
    expect(await detailOf(illegal)).toBe('A claim cannot move from draft to closed. From draft it may move to: open.');
    await adjuster('PATCH', `/claims/${id}/`, {
      data: { type: 'claim', id, attributes: { status: 'open', date_of_loss: '2026-09-01' } },
    });
    const noReason = await adjuster('PATCH', `/claims/${id}/`, {
      data: { type: 'claim', id, attributes: { status: 'closed' } },
    });
    expect(noReason.status).toBe(400);
    expect(await pointersOf(noReason)).toEqual(['/data/attributes/status_change_reason']);
    const closed = await adjuster('PATCH', `/claims/${id}/`, {
      data: { type: 'claim', id, attributes: { status: 'closed', status_change_reason: 'Claim Paid' } },
    });
    expect((await closed.json()).data.attributes.status).toBe('closed');
  });

  it('answers 412 to a stale If-Match and accepts the current one', async () => {
    const { body, etag } = await createDraft();
    const id = body.data.id;
    const first = await adjuster(
      'PATCH',
      `/claims/${id}/`,
      { data: { type: 'claim', id, attributes: { loss_description: 'one' } } },
      { 'if-match': etag },
    );
    expect(first.status).toBe(200);
    const next = first.headers.get('etag')!;
    expect(next).not.toBe(etag);
    const stale = await adjuster(
      'PATCH',
      `/claims/${id}/`,
      { data: { type: 'claim', id, attributes: { loss_description: 'two' } } },
      { 'if-match': etag },
    );
    expect(stale.status).toBe(412);
    const current = await (await adjuster('GET', `/claims/${id}/`)).json();
    expect(current.data.attributes.loss_description).toBe('one');
    const fresh = await adjuster(
      'PATCH',
      `/claims/${id}/`,
      { data: { type: 'claim', id, attributes: { loss_description: 'three' } } },
      { 'if-match': next },
    );
    expect(fresh.status).toBe(200);
  });

  it('moves exposures open → closed → reopened, refusing open → reopened', async () => {
    const list = await (await adjuster('GET', '/exposures/?status=open&page[size]=1')).json();
    const exposure = list.data[0];
    const id = exposure.id;
    const illegal = await adjuster('PATCH', `/exposures/${id}/`, {
      data: { type: 'exposure', id, attributes: { status: 'reopened', status_change_reason: 'x' } },
    });
    expect(illegal.status).toBe(400);
    const read = await adjuster('GET', `/exposures/${id}/`);
    const etag = read.headers.get('etag')!;
    const closed = await adjuster(
      'PATCH',
      `/exposures/${id}/`,
      { data: { type: 'exposure', id, attributes: { status: 'closed', status_change_reason: 'Paid in Full' } } },
      { 'if-match': etag },
    );
    expect(closed.status).toBe(200);
    const stale = await adjuster(
      'PATCH',
      `/exposures/${id}/`,
      { data: { type: 'exposure', id, attributes: { summary: 'late' } } },
      { 'if-match': etag },
    );
    expect(stale.status).toBe(412);
  });
});

describe('status table', () => {
  it('serves every allowed move with its reasons', async () => {
    const statuses = await (await adjuster('GET', '/claims/statuses/?entity=claim')).json();
    const moves = statuses.data.map(
      (s: any) => `${s.attributes.from_status}>${s.attributes.to_status}:${s.attributes.reason}`,
    );
    expect(moves).toContain('draft>open:');
    expect(moves).toContain('open>closed:Claim Paid');
    expect(moves).toContain('closed>reopened:New Information');
    expect(moves.some((m: string) => m.startsWith('draft>closed'))).toBe(false);
  });
});

describe('claim list', () => {
  it('pages by 250 with links and filters by status, has_adjuster, location and numbers', async () => {
    const all = await (await adjuster('GET', '/claims/')).json();
    expect(all.meta.count).toBeGreaterThanOrEqual(60);
    expect(all.links.next).toBeNull();
    const paged = await (await adjuster('GET', '/claims/?page[size]=20&page[number]=2')).json();
    expect(paged.data).toHaveLength(20);
    expect(paged.links.prev).toContain('page%5Bnumber%5D=1');
    const pending = await (await adjuster('GET', '/claims/?has_adjuster=false&status=open')).json();
    expect(pending.data.length).toBeGreaterThan(0);
    expect(
      pending.data.every((c: any) => c.attributes.primary_adjuster === null && c.attributes.status === 'open'),
    ).toBe(true);
    const chicago = await (await adjuster('GET', '/claims/?loss_city=chicago&loss_state=il')).json();
    expect(chicago.data.length).toBeGreaterThan(0);
    expect(chicago.data.every((c: any) => c.attributes.loss_location.city === 'Chicago')).toBe(true);
    const zip = await (await adjuster('GET', '/claims/?filter[loss_zip]=60601')).json();
    expect(zip.meta.count).toBe(chicago.meta.count);
    const two = all.data.slice(0, 2).map((c: any) => c.attributes.number);
    const numbers = await (await adjuster('GET', `/claims/?numbers=${two.join(',')}`)).json();
    expect(numbers.data.map((c: any) => c.attributes.number).sort()).toEqual([...two].sort());
    const exact = await (await adjuster('GET', `/claims/?claim_number=${two[0]}`)).json();
    expect(exact.meta.count).toBe(1);
    const bad = await adjuster('GET', '/claims/?has_adjuster=maybe');
    expect(bad.status).toBe(400);
    const badInclude = await adjuster('GET', '/claims/?include=nothing');
    expect(badInclude.status).toBe(400);
    expect(await pointersOf(badInclude)).toEqual(['?include']);
  });

  it('includes exposures and the product once each', async () => {
    const page = await (await adjuster('GET', '/claims/?status=open&include=exposures,product&page[size]=5')).json();
    const keys = page.included.map((r: any) => `${r.type}:${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.some((k: string) => k.startsWith('product:'))).toBe(true);
  });
});

describe('content negotiation and access', () => {
  it('answers 415 for a body that is not JSON:API and 406 for an Accept with parameters', async () => {
    const wrongType = await adjuster('POST', '/claims/', JSON.stringify(doc('claim', {})), {
      'content-type': 'application/json',
    });
    expect(wrongType.status).toBe(415);
    const wrongAccept = await adjuster('GET', '/claims/', undefined, {
      accept: 'application/vnd.api+json; charset=utf-8',
    });
    expect(wrongAccept.status).toBe(406);
    const conflict = await adjuster('POST', '/claims/', { data: { type: 'exposure', attributes: {} } });
    expect(conflict.status).toBe(409);
  });

  it('lets the underwriter read claims but not write them', async () => {
    expect((await underwriter('GET', '/claims/?page[size]=1')).status).toBe(200);
    expect((await underwriter('POST', '/claims/', doc('claim', {}))).status).toBe(403);
    const anonymous = await server.fetch('/api/claims/claims/', { headers: { accept: 'application/vnd.api+json' } });
    expect(anonymous.status).toBe(401);
  });
});

describe('tags', () => {
  it('replaces a claim’s tags by PATCH of the relationship and refuses unknown tags', async () => {
    const { body } = await createDraft();
    const id = body.data.id;
    const tags = await (await adjuster('GET', '/tags/')).json();
    const [t1, t2] = tags.data;
    const set = await adjuster('PATCH', `/claims/${id}/relationships/tags/`, {
      data: [
        { type: 'tag', id: t1.id },
        { type: 'tag', id: t2.id },
      ],
    });
    expect(set.status).toBe(200);
    expect((await set.json()).data.map((d: any) => d.id)).toEqual(
      [t1.id, t2.id].sort((a: string, b: string) => Number(a) - Number(b)),
    );
    const claim = await (await adjuster('GET', `/claims/${id}/`)).json();
    expect(claim.data.relationships.tags.data).toHaveLength(2);
    const unknown = await adjuster('PATCH', `/claims/${id}/relationships/tags/`, {
      data: [{ type: 'tag', id: '999999' }],
    });
    expect(unknown.status).toBe(400);
  });
});
