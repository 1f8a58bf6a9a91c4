import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * Agents and agencies read only the claims of the policies they write (issue 14, hole 2): the
 * system policies put a record condition on claims:claim that compares the policy's producers with
 * the signed-in user's contact_id (agents) or agency_id (agencies). Lists, their counts, one claim
 * by id and include= all follow it; a user without a contact sees no claim at all.
 */
let server: ClaimsTestServer;
let agent: Caller;
let agency: Caller;
let adjuster: Caller;

interface ClaimList {
  data: { id: string; attributes: { number: string } }[];
  meta: { count: number };
}

/** Claim numbers whose policy revision names this producer, straight from the database. */
async function numbersWhere(column: 'agent_contact_id' | 'agency_contact_id', value: string): Promise<string[]> {
  const { rows } = await server.atrium.database.pool.query<{ number: string }>(
    `SELECT c.number FROM claims.claim c JOIN claims.policy_revision r ON r.id = c.policy_revision_id
     WHERE r.${column} = $1 ORDER BY c.number`,
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
  server = await startClaimsServer();
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
