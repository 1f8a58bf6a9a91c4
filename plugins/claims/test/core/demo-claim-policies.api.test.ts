import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as } from '@atrium/sdk/testing';
import { startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * The claims demo is filed on the policies demo (issue 21, item 7: one source of policies): with the
 * policies module installed, every demo claim names a policy the policies API answers, its loss date
 * lies within one of that policy's terms, and its insured is the policy's named insured.
 */
let server: ClaimsTestServer;
let adjuster: Caller;
let policies: Awaited<ReturnType<typeof as>>;

interface DemoClaim {
  id: string;
  attributes: {
    number: string;
    status: string;
    date_of_loss: string;
    policy_source: string;
    policy_ref: string | null;
    policy_number: string | null;
    reported_by: { name: string } | null;
  };
}

beforeAll(async () => {
  server = await startClaimsServer({ policies: true });
  adjuster = await server.as('adjuster@atrium.test');
  policies = await as(server, 'underwriter@atrium.test', { base: '/api' });
});
afterAll(async () => {
  await server?.close();
});

describe('the claims demo on the policies demo', () => {
  it('files every demo claim on a real policy, in its term, for its insured', async () => {
    const list = await adjuster('GET', '/claims/?page[size]=250');
    expect(list.status).toBe(200);
    const claims = ((await list.json()) as { data: DemoClaim[] }).data;
    expect(claims.length).toBe(60);
    const statuses = new Set(claims.map((c) => c.attributes.status));
    expect([...statuses].sort()).toEqual(['closed', 'draft', 'open', 'reopened']);
    const policyNumbers = new Set<string>();
    for (const c of claims) {
      const { attributes: a } = c;
      expect(a.policy_source, a.number).toBe('policies');
      const response = await policies.get(`/policies/policies/${a.policy_ref}/`);
      expect(response.status, a.number).toBe(200);
      const policy = (await response.json()) as {
        policy_number: string;
        named_insured: { name: string };
        terms: { effective_date: string; expiration_date: string }[];
      };
      expect(a.policy_number, a.number).toBe(policy.policy_number);
      policyNumbers.add(policy.policy_number);
      const lossDay = new Date(a.date_of_loss).toISOString().slice(0, 10);
      const inTerm = policy.terms.some((t) => t.effective_date <= lossDay && lossDay < t.expiration_date);
      expect(inTerm, `${a.number} lost ${lossDay}`).toBe(true);
      expect(a.reported_by?.name, a.number).toBe(policy.named_insured.name);
      if (a.status === 'draft') continue;
      const parties = await adjuster('GET', `/claims/${c.id}/?include=parties`);
      expect(parties.status).toBe(200);
      const included = ((await parties.json()) as { included: { attributes: { role: string; name: string } }[] })
        .included;
      const insured = included.filter((p) => p.attributes.role === 'insured').map((p) => p.attributes.name);
      expect(insured, a.number).toEqual([policy.named_insured.name]);
    }
    // The demo spreads over the book: both lines, several policies.
    expect(policyNumbers.size).toBeGreaterThan(4);
  });
});

describe('the claims demo without the policies module', () => {
  it('files the demo claims on the mock policies, as before the policies module', async () => {
    const alone = await startClaimsServer({ ownTemplate: 'claims-without-policies' });
    try {
      const caller = await alone.as('adjuster@atrium.test');
      const list = await caller('GET', '/claims/?page[size]=250');
      expect(list.status).toBe(200);
      const claims = ((await list.json()) as { data: DemoClaim[] }).data;
      expect(claims.length).toBe(60);
      for (const c of claims) expect(c.attributes.policy_source, c.attributes.number).toBe('mock');
      expect(claims.every((c) => c.attributes.policy_number)).toBe(true);
    } finally {
      await alone.close();
    }
  });
});
