import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@atrium/sdk';
import { collectionClient } from '../../web/api/collections.js';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

/**
 * What the claim workspace calls after FNOL: the moves a claim may make now (claims/statuses/?claim=),
 * and adding and editing exposures, risks, parties and injuries on a submitted claim.
 */
let server: ClaimsTestServer;
let adjuster: Caller;
let underwriter: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  underwriter = await server.as('underwriter@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

const body = async (response: Response) => (await response.json()) as any;
const rel = (type: string, id: string) => ({ data: { type, id } });

async function firstClaim(status: string): Promise<{ id: string; number: string }> {
  const list = await body(await adjuster('GET', `/claims/?status=${status}&page[size]=1`));
  return { id: list.data[0].id, number: list.data[0].attributes.number };
}

describe('claims/statuses/ for one claim', () => {
  it('offers exactly the moves the claim may make now, with their reasons', async () => {
    const open = await firstClaim('open');
    const moves = await body(await adjuster('GET', `/claims/statuses/?claim=${open.id}`));
    expect(new Set(moves.data.map((m: any) => m.attributes.to_status))).toEqual(new Set(['closed']));
    expect(moves.data.every((m: any) => m.attributes.from_status === 'open')).toBe(true);
    expect(moves.data[0].attributes).toMatchObject({ action: 'Close Claim', reason_required: true });

    const closed = await firstClaim('closed');
    const reopen = await body(await adjuster('GET', `/claims/statuses/?filter[claim]=${closed.id}`));
    expect(new Set(reopen.data.map((m: any) => m.attributes.to_status))).toEqual(new Set(['reopened']));

    const fromDraft = await body(await adjuster('GET', '/claims/statuses/?entity=claim&from_status=draft'));
    expect(fromDraft.data.map((m: any) => m.attributes.to_status)).toEqual(['open']);
    // A from_status that is not the claim's own: no move.
    expect((await body(await adjuster('GET', `/claims/statuses/?claim=${open.id}&from_status=closed`))).data).toEqual(
      [],
    );
    const wrongEntity = await adjuster('GET', `/claims/statuses/?claim=${open.id}&entity=exposure`);
    expect(wrongEntity.status).toBe(400);
    expect((await adjuster('GET', '/claims/statuses/?claim=99999999')).status).toBe(404);
  });
});

describe('the claim grows after FNOL', () => {
  it('adds and edits a party, a risk, an exposure and an injury on a submitted claim', async () => {
    const open = await firstClaim('open');
    const parties = await body(await adjuster('GET', `/parties/?filter[claim]=${open.id}`));
    const next = Math.max(...parties.data.map((p: any) => p.attributes.display_number)) + 1;
    const party = await adjuster(
      'POST',
      '/parties/',
      doc(
        'party',
        { name: 'Robin Witness', role: 'witness', display_number: next, email: null },
        {
          relationships: { claim: rel('claim', open.id) },
        },
      ),
    );
    expect(party.status).toBe(201);
    const partyId = (await body(party)).data.id;
    const samNumber = await adjuster(
      'POST',
      '/parties/',
      doc(
        'party',
        { name: 'Again', role: 'witness', display_number: next },
        {
          relationships: { claim: rel('claim', open.id) },
        },
      ),
    );
    expect(samNumber.status).toBe(400);
    expect(await pointersOf(samNumber)).toEqual(['/data/attributes/display_number']);

    const types = await body(await adjuster('GET', '/risk-types/'));
    const risk = await adjuster(
      'POST',
      '/risks/',
      doc(
        'risk',
        { name: '2019 Honda Civic', sub_name: 'Blue', is_first_party_risk: false },
        {
          relationships: { claim: rel('claim', open.id), risk_type: rel('risk-type', types.data[0].id) },
        },
      ),
    );
    expect(risk.status).toBe(201);
    const riskId = (await body(risk)).data.id;
    const noName = await adjuster(
      'POST',
      '/risks/',
      doc('risk', { name: '' }, { relationships: { claim: rel('claim', open.id) } }),
    );
    expect(noName.status).toBe(400);
    expect(await pointersOf(noName)).toContain('/data/attributes/name');

    const exposure = await adjuster(
      'POST',
      '/exposures/',
      doc(
        'exposure',
        { exposure_name: 'Third-party vehicle', adjuster: 'adjuster@atrium.test' },
        {
          relationships: {
            claim: rel('claim', open.id),
            party: rel('party', partyId),
            risk: rel('risk', riskId),
          },
        },
      ),
    );
    expect(exposure.status).toBe(201);
    const created = (await body(exposure)).data;
    expect(created.attributes).toMatchObject({ status: 'open', adjuster: 'adjuster@atrium.test' });
    const edited = await adjuster(
      'PATCH',
      `/exposures/${created.id}/`,
      doc('exposure', { description: 'Rear-ended at a light', adjuster: 'sms@atrium.test' }, { id: created.id }),
    );
    expect(edited.status).toBe(200);
    expect((await body(edited)).data.attributes.adjuster).toBe('sms@atrium.test');
    const notAdjuster = await adjuster(
      'PATCH',
      `/exposures/${created.id}/`,
      doc('exposure', { adjuster: 'underwriter@atrium.test' }, { id: created.id }),
    );
    expect(notAdjuster.status).toBe(400);
    expect(await detailOf(notAdjuster)).toBe('User underwriter@atrium.test is not a claims user.');

    const injury = await adjuster(
      'POST',
      '/injuries/',
      doc(
        'injury',
        { description: 'Whiplash', treatment: 'Physiotherapy', settlement_from: '1000.00' },
        {
          relationships: { claim: rel('claim', open.id), party: rel('party', partyId) },
        },
      ),
    );
    expect(injury.status).toBe(201);
    const injuryId = (await body(injury)).data.id;
    const badAmount = await adjuster(
      'PATCH',
      `/injuries/${injuryId}/`,
      doc('injury', { settlement_to: '12.345' }, { id: injuryId }),
    );
    expect(badAmount.status).toBe(400);
    expect(await pointersOf(badAmount)).toEqual(['/data/attributes/settlement_to']);

    // Readers may not add.
    const refused = await underwriter(
      'POST',
      '/exposures/',
      doc('exposure', { exposure_name: 'No' }, { relationships: { claim: rel('claim', open.id) } }),
    );
    expect(refused.status).toBe(403);
  });

  it('changes status with the reason the move needs', async () => {
    const open = await firstClaim('open');
    const noReason = await adjuster(
      'PATCH',
      `/claims/${open.id}/`,
      doc('claim', { status: 'closed' }, { id: open.id }),
    );
    expect(noReason.status).toBe(400);
    expect(await pointersOf(noReason)).toEqual(['/data/attributes/status_change_reason']);
    const closed = await adjuster(
      'PATCH',
      `/claims/${open.id}/`,
      doc('claim', { status: 'closed', status_change_reason: 'Claim Paid' }, { id: open.id }),
    );
    expect(closed.status).toBe(200);
    expect((await body(closed)).data.attributes).toMatchObject({
      status: 'closed',
      status_change_reason: 'Claim Paid',
    });
    const after = await body(await adjuster('GET', `/claims/statuses/?claim=${open.id}`));
    expect(after.data.map((m: any) => m.attributes.to_status)).toContain('reopened');
  });
});

describe("the workspace's collection clients (useClaimCollection, useLookup)", () => {
  it("read a claim's parties, risks and exposures and whole lookups through resourceClient", async () => {
    const open = await firstClaim('open');
    const api = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => (adjuster as Caller & { token?: string }).token ?? null,
      getEffectiveRole: () => null,
    });
    const read = (path: string, claim?: string) =>
      collectionClient(path).listAll(api, claim ? { filters: { claim } } : {});
    const direct = async (path: string) =>
      (await body(await adjuster('GET', `${path.replace('/claims', '')}?filter[claim]=${open.id}&page[size]=250`)))
        .data as { id: string; attributes: Record<string, unknown>; relationships?: Record<string, any> }[];
    // Declared collections (parties, risks) and a hand-written one (exposures) answer what a direct call does.
    for (const path of ['/claims/parties/', '/claims/risks/', '/claims/exposures/']) {
      const expected = await direct(path);
      const items = await read(path, open.id);
      expect(items.map((item) => item.id).sort()).toEqual(expected.map((r) => r.id).sort());
      for (const item of items) expect(item).toMatchObject(expected.find((r) => r.id === item.id)!.attributes);
    }
    const exposures = await read('/claims/exposures/', open.id);
    expect(exposures.length).toBeGreaterThan(0);
    // To-many relationships come flat as `<name>_ids` (the exposure tag editor reads `tags_ids`).
    expect(exposures.every((exposure) => Array.isArray(exposure.tags_ids))).toBe(true);
    // Lookups whole, declared (perils) or hand-written (payors), as many as the collection counts.
    for (const path of ['/claims/perils/', '/claims/payors/']) {
      const counted = (await body(await adjuster('GET', `${path.replace('/claims', '')}?page[size]=1`))).meta.count;
      expect((await read(path)).length).toBe(counted);
    }
    expect((await read('/claims/perils/')).length).toBeGreaterThan(0);
  });
});
