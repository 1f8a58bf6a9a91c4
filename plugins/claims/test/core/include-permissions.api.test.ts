import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doc, startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * `include=` shows each related type only to callers who may read that type (security issue 14,
 * item 1): an agent reads claims but not their parties (403 on parties/), so
 * `claims/{id}/?include=parties,exposures` must not hand the agent the parties either. The
 * adjuster, who may read parties, still gets them.
 */
let server: ClaimsTestServer;
let agent: Caller;
let adjuster: Caller;
let claimId: string;
let partyId: string;

interface Included {
  type: string;
  id: string;
}

beforeAll(async () => {
  server = await startClaimsServer();
  agent = await server.as('agent@agency.test');
  adjuster = await server.as('adjuster@atrium.test');
  // A claim the agent certainly reads (their own FNOL), with a party the adjuster adds.
  const created = await agent('POST', '/claims/', doc('claim', { loss_description: 'Hail on the roof' }));
  expect(created.status).toBe(201);
  claimId = ((await created.json()) as { data: { id: string } }).data.id;
  const party = await adjuster(
    'POST',
    '/parties/',
    doc(
      'party',
      { name: 'Pat Claimant', display_number: 1, phone: '555-0100', email: 'pat@example.test' },
      { relationships: { claim: { data: { type: 'claim', id: claimId } } } },
    ),
  );
  expect(party.status).toBe(201);
  partyId = ((await party.json()) as { data: { id: string } }).data.id;
}, 900_000);
afterAll(async () => server?.close());

describe('include= checks each included type with its own read permission', () => {
  it('refuses the agent the party itself', async () => {
    expect((await agent('GET', `/parties/${partyId}/`)).status).toBe(403);
  });

  it('does not include the parties for the agent, on one claim or a list', async () => {
    const one = await agent('GET', `/claims/${claimId}/?include=parties,exposures`);
    expect(one.status).toBe(200);
    const body = (await one.json()) as { data: { relationships: any }; included?: Included[] };
    expect(body.data.relationships.parties.data).toContainEqual({ type: 'party', id: partyId });
    expect((body.included ?? []).filter((r) => r.type === 'party' || r.type === 'exposure')).toEqual([]);
    expect(JSON.stringify(body)).not.toContain('Pat Claimant');

    const list = await agent('GET', `/claims/?include=parties,primary_insured&page[size]=250`);
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { included?: Included[] };
    expect((listed.included ?? []).filter((r) => r.type === 'party')).toEqual([]);
  });

  it('still includes them for the adjuster', async () => {
    const one = await adjuster('GET', `/claims/${claimId}/?include=parties`);
    const body = (await one.json()) as { included?: (Included & { attributes: { name: string } })[] };
    expect(body.included).toContainEqual(
      expect.objectContaining({
        type: 'party',
        id: partyId,
        attributes: expect.objectContaining({ name: 'Pat Claimant' }),
      }),
    );
  });
});
