import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

/**
 * Agents and agencies read only the claims of the policies they write (issue 14, hole 2): the
 * system policies put a record condition on claims:claim that compares the policy's producers with
 * the signed-in user's contact_id (agents) or agency_id (agencies). Lists, their counts, one claim
 * by id and include= all follow it; a user without a contact sees no claim at all. The FNOL's search
 * of the policies module's policies follows it too (issue 21, item 7: one source of policies).
 */
let server: ClaimsTestServer;
let agent: Caller;
let agency: Caller;
let adjuster: Caller;

interface ClaimList {
  data: { id: string; attributes: { number: string } }[];
  meta: { count: number };
}

/**
 * Claim numbers whose policy names this producer, straight from the database: the producers copied
 * from a policies-module policy (the demo's claims, issue 21 item 7), else the mock revision's.
 */
async function numbersWhere(column: 'agent_contact_id' | 'agency_contact_id', value: string): Promise<string[]> {
  const { rows } = await server.atrium.database.pool.query<{ number: string }>(
    `SELECT c.number FROM claims.claim c LEFT JOIN claims.policy_revision r ON r.id = c.policy_revision_id
     WHERE COALESCE(c.policy_${column}, r.${column}) = $1 ORDER BY c.number`,
    [value],
  );
  return rows.map((row) => row.number);
}

async function listNumbers(caller: Caller): Promise<{ numbers: string[]; count: number }> {
  const response = await caller('GET', '/claims/?page[size]=250');
  expect(response.status).toBe(200);
  const body = (await response.json()) as ClaimList;
  return { numbers: body.data.map((c) => c.attributes.number).sort(), count: body.meta.count };
}

async function idOf(number: string): Promise<string> {
  const { rows } = await server.atrium.database.pool.query<{ id: number }>(
    'SELECT id FROM claims.claim WHERE number = $1',
    [number],
  );
  return String(rows[0]!.id);
}

beforeAll(async () => {
  // With the policies module installed: the FNOL's policy search answers its policies too.
  server = await startClaimsServer({ policies: true });
  [agent, agency, adjuster] = await Promise.all([
    server.as('agent@agency.test'),
    server.as('agency@agency.test'),
    server.as('adjuster@atrium.test'),
  ]);
});
afterAll(async () => {
  await server?.close();
});

describe('record scope of agents and agencies', () => {
  it("an agent lists exactly the claims of the agent's own policies", async () => {
    const expected = await numbersWhere('agent_contact_id', 'CON-AGENT-ALEX');
    const all = await listNumbers(adjuster);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.count);
    const seen = await listNumbers(agent);
    expect(seen.numbers).toEqual(expected);
    expect(seen.count).toBe(expected.length);
  });

  it("an agency lists the claims of its agents' policies, not another agency's", async () => {
    const expected = await numbersWhere('agency_contact_id', 'CON-AGENCY-HARBOUR');
    const others = await numbersWhere('agency_contact_id', 'CON-AGENCY-NORTHGATE');
    expect(others.length).toBeGreaterThan(0);
    const seen = await listNumbers(agency);
    expect(seen.numbers).toEqual(expected);
    expect(seen.numbers.some((n) => others.includes(n))).toBe(false);
  });

  it("another producer's claim is answered like a missing one, also with include=", async () => {
    const [foreign] = await numbersWhere('agent_contact_id', 'CON-AGENT-NOOR');
    const [own] = await numbersWhere('agent_contact_id', 'CON-AGENT-ALEX');
    const foreignId = await idOf(foreign!);
    expect((await agent('GET', `/claims/${foreignId}/`)).status).toBe(404);
    expect((await agent('GET', `/claims/${foreignId}/?include=parties,exposures`)).status).toBe(404);
    expect((await agent('GET', `/claims/${await idOf(own!)}/`)).status).toBe(200);
    expect((await adjuster('GET', `/claims/${foreignId}/`)).status).toBe(200);
  });

  it('an agent without a contact sees no claim', async () => {
    await server.atrium.database.pool.query(
      "UPDATE identity.user SET contact_id = NULL WHERE username = 'agent@agency.test'",
    );
    try {
      // The authenticator's cache follows identity's revision (at most a second behind).
      const deadline = Date.now() + 30_000;
      let seen = await listNumbers(agent);
      while (seen.count > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        seen = await listNumbers(agent);
      }
      expect(seen).toEqual({ numbers: [], count: 0 });
    } finally {
      await server.atrium.database.pool.query(
        "UPDATE identity.user SET contact_id = 'CON-AGENT-ALEX' WHERE username = 'agent@agency.test'",
      );
    }
  });
});

describe("the policies module's policies in the FNOL (one source of policies)", () => {
  const today = new Date().toISOString().slice(0, 10);
  /** A demo policy of the policies module in force today, written by this agent. */
  async function demoPolicyOf(agent: string): Promise<{ id: string; number: string; effective: string }> {
    const { rows } = await server.atrium.database.pool.query<{ id: number; number: string; effective: string }>(
      `SELECT p.id, p.number, t.effective_date::text AS effective FROM policies.policy p
       JOIN policies.policy_term t ON t.policy_id = p.id
       WHERE p.agent_contact_id = $1 AND p.status = 'In Force' AND t.effective_date <= $2 AND t.expiration_date > $2
       ORDER BY p.id LIMIT 1`,
      [agent, today],
    );
    expect(rows[0]).toBeDefined();
    return { id: String(rows[0]!.id), number: rows[0]!.number, effective: rows[0]!.effective };
  }

  it('finds a real policy first, gives its revision in force on the loss date with coverages, and files a claim on it', async () => {
    const own = await demoPolicyOf('CON-AGENT-ALEX');
    const found = await (
      await adjuster('GET', `/integrations/policies/search/?policyNumber=${encodeURIComponent(own.number)}`)
    ).json();
    expect(found.data[0]).toMatchObject({
      type: 'insured-policy',
      attributes: { source: 'policies', policy_ref: own.id, policy_number: own.number },
    });

    const inForce = await adjuster('GET', `/integrations/policies/in-force/?policy_ref=${own.id}&date=${today}`);
    expect(inForce.status).toBe(200);
    const revision = (await inForce.json()).data.attributes;
    expect(revision.policy_number).toBe(own.number);
    expect(revision.coverages.length).toBeGreaterThan(0);
    expect(revision.coverages[0]).toMatchObject({ coverage_type: expect.any(String), label: expect.any(String) });
    const outside = await adjuster('GET', `/integrations/policies/in-force/?policy_ref=${own.id}&date=1999-01-01`);
    expect(outside.status).toBe(400);
    expect(await detailOf(outside)).toBe('The policy was not in force on 1999-01-01.');

    // A claim on it keeps the policies reference (never a mock id) and the coverages in force.
    const coverage = revision.coverages[0].coverage_type;
    const created = await adjuster(
      'POST',
      '/claims/',
      doc('claim', {
        policy_ref: own.id,
        policy_date: today,
        date_of_loss: today,
        loss_description: 'Water through the ceiling',
        claimants: [{ claimant_name: 'Pat Insured', coverage_type: coverage }],
      }),
    );
    expect(created.status).toBe(201);
    const claim = (await created.json()).data;
    expect(claim.attributes).toMatchObject({
      policy_source: 'policies',
      policy_ref: own.id,
      policy_number: own.number,
      policy_id: null,
      policy_revision_id: null,
      policy_revision_number: revision.revision_number,
    });
    expect(claim.attributes.policy_coverages).toEqual(revision.coverages);
    const submitted = await adjuster(
      'PATCH',
      `/claims/${claim.id}/`,
      doc('claim', { status: 'open' }, { id: claim.id }),
    );
    expect(submitted.status).toBe(200);
    const exposures = await (await adjuster('GET', `/exposures/?filter[claim_id]=${claim.id}`)).json();
    expect(exposures.data.map((e: any) => e.attributes.coverage_type)).toContain(coverage);

    // Choosing a policy not in force on the day is a 400 on policy_ref.
    const late = await adjuster('POST', '/claims/', doc('claim', { policy_ref: own.id, policy_date: '1999-01-01' }));
    expect(late.status).toBe(400);
    expect(await pointersOf(late)).toEqual(['/data/attributes/policy_ref']);
  });

  it("an agent finds the policies of their own book, not another agency's, and reads the claim filed on theirs", async () => {
    const agent = await server.as('agent@agency.test');
    const own = await demoPolicyOf('CON-AGENT-ALEX');
    const foreign = await demoPolicyOf('CON-AGENT-NOOR');
    const numbersFor = async (caller: Caller, number: string) =>
      (
        await (await caller('GET', `/integrations/policies/search/?policyNumber=${encodeURIComponent(number)}`)).json()
      ).data
        .filter((p: any) => p.attributes.source === 'policies')
        .map((p: any) => p.attributes.policy_number);
    // The previous test gave the agent their contact back: the authenticator follows within a second.
    const deadline = Date.now() + 30_000;
    while ((await numbersFor(agent, own.number)).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await numbersFor(agent, own.number)).toEqual([own.number]);
    expect(await numbersFor(agent, foreign.number)).toEqual([]);
    expect(await numbersFor(adjuster, foreign.number)).toEqual([foreign.number]);
    const hidden = await agent('GET', `/integrations/policies/in-force/?policy_ref=${foreign.id}&date=${today}`);
    expect(hidden.status).toBe(400);
    // Nor can the agent file an FNOL on it (which would copy its coverages into a claim they read).
    const filed = await agent('POST', '/claims/', doc('claim', { policy_ref: foreign.id, policy_date: today }));
    expect(filed.status).toBe(400);
    expect(await pointersOf(filed)).toEqual(['/data/attributes/policy_ref']);
    const ownFiled = await agent('POST', '/claims/', doc('claim', { policy_ref: own.id, policy_date: today }));
    expect(ownFiled.status).toBe(201);

    // Claims on real policies follow the same record scope: the agent lists theirs, not the other one's.
    const fileOn = async (ref: string) =>
      (await (await adjuster('POST', '/claims/', doc('claim', { policy_ref: ref, policy_date: today }))).json()).data
        .id as string;
    const [ownClaim, foreignClaim] = [await fileOn(own.id), await fileOn(foreign.id)];
    expect((await agent('GET', `/claims/${ownClaim}/`)).status).toBe(200);
    expect((await agent('GET', `/claims/${foreignClaim}/`)).status).toBe(404);
    const listed = (await (await agent('GET', '/claims/?page[size]=250')).json()).data.map((c: any) => c.id);
    expect(listed).toContain(ownClaim);
    expect(listed).not.toContain(foreignClaim);
  });
});
