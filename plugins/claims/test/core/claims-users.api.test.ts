import { as } from '@atrium/sdk/testing';
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
 * A claims user is an identity user whose role may update claims (the access evaluator decides); no
 * second list. Per-user claim settings are created on first use.
 */
let server: ClaimsTestServer;
let adjuster: Caller;
let admin: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  admin = await server.as('admin@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

const json = (caller: Caller, method: string, path: string, body: unknown) =>
  caller(method, path, JSON.stringify(body), { 'content-type': 'application/json', accept: 'application/json' });

/** As the administrator does it in Users and Access: a new user, then the Claims Adjuster role. */
async function newUser(username: string, role: string | null) {
  const root = await as(server, 'admin@atrium.test', { mediaType: 'jsonapi' });
  const created = await root.post('/api/identity/user-management/users', {
    data: { type: 'user', attributes: { username, name: 'Nova Newhire' } },
  });
  expect(created.status).toBe(201);
  if (role) {
    const json = await as(server, 'admin@atrium.test');
    const assigned = await json.post('/api/access/role-user-name-assignments', { user_name: username, role });
    expect(assigned.status).toBeLessThan(300);
  }
}

async function openClaimId(): Promise<number> {
  const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=1')).json();
  return Number(claims.data[0].id);
}

describe('claims users', () => {
  it('a user created in Users with the Claims Adjuster role is listed and can be given a claim', async () => {
    await newUser('nova@atrium.test', 'Claims Adjuster');
    const users = await (await adjuster('GET', '/integrations/users/')).json();
    const names = users.data.map((u: any) => u.attributes.username);
    expect(names).toContain('nova@atrium.test');
    expect(names).toContain('adjuster@atrium.test');
    // Underwriters read claims but may not update them: not claims users.
    expect(names).not.toContain('underwriter@atrium.test');
    const searched = await (await adjuster('GET', '/integrations/users/?search=nova')).json();
    expect(searched.data.map((u: any) => u.attributes.username)).toEqual(['nova@atrium.test']);

    const claimId = await openClaimId();
    const assigned = await json(adjuster, 'POST', '/claims/users/nova@atrium.test/assign/claims/', {
      claim_ids: [claimId],
    });
    expect(assigned.status).toBe(200);
    const claim = await (await adjuster('GET', `/claims/${claimId}/`)).json();
    expect(claim.data.attributes.primary_adjuster).toBe('nova@atrium.test');
    // Screens show the person: the name claims keeps for its users.
    expect(claim.data.attributes.primary_adjuster_name).toBe('Nova Newhire');

    // Settings were created on first use.
    const user = await (await adjuster('GET', '/integrations/users/nova@atrium.test/')).json();
    expect(user.data.attributes).toMatchObject({ name: 'Nova Newhire', settings: {} });
    const roles = await (await adjuster('GET', '/integrations/users/roles/')).json();
    const roleId = Number(roles.data.find((r: any) => r.attributes.name === 'Supervisor').id);
    const exposures = await (await adjuster('GET', `/exposures/?filter[claim]=${claimId}`)).json();
    const onExposure = await json(adjuster, 'POST', '/integrations/users/exposure-assignments/', {
      username: 'nova@atrium.test',
      role_id: roleId,
      exposure_id: Number(exposures.data[0].id),
    });
    expect(onExposure.status).toBe(201);
    const assignmentId = (await onExposure.json()).data.id;
    // The exposures tab reads every exposure assignment of the claim in one request (claim_id).
    const ofClaim = await (
      await adjuster('GET', `/integrations/users/exposure-assignments/?claim_id=${claimId}`)
    ).json();
    expect(ofClaim.data.map((a: any) => a.id)).toContain(assignmentId);
    const all = await (await adjuster('GET', '/claims/?status=open&page[size]=2')).json();
    const otherClaim = all.data.map((c: any) => Number(c.id)).find((id: number) => id !== claimId);
    const ofOther = await (
      await adjuster('GET', `/integrations/users/exposure-assignments/?claim_id=${otherClaim}`)
    ).json();
    expect(ofOther.data.map((a: any) => a.id)).not.toContain(assignmentId);
  });

  it('refuses users who are not claims users: unknown, without a claims role, underwriters', async () => {
    await newUser('norole@atrium.test', null);
    const claimId = await openClaimId();
    const roles = await (await adjuster('GET', '/integrations/users/roles/')).json();
    const roleId = Number(roles.data[0].id);
    for (const username of ['nobody@atrium.test', 'norole@atrium.test', 'underwriter@atrium.test']) {
      const refused = await json(adjuster, 'POST', '/integrations/users/claim-assignments/', {
        username,
        role_id: roleId,
        claim_id: claimId,
      });
      expect(refused.status).toBe(400);
      expect(await detailOf(refused)).toBe(`User ${username} is not a claims user.`);
      const notAdjuster = await adjuster(
        'PATCH',
        `/claims/${claimId}/`,
        doc('claim', { primary_adjuster: username }, { id: String(claimId) }),
      );
      expect(notAdjuster.status).toBe(400);
      expect(await pointersOf(notAdjuster)).toEqual(['/data/attributes/primary_adjuster']);
    }
    const adjusterOk = await adjuster(
      'PATCH',
      `/claims/${claimId}/`,
      doc('claim', { primary_adjuster: 'sms@atrium.test' }, { id: String(claimId) }),
    );
    expect(adjusterOk.status).toBe(200);
    // Made adjuster through the claim itself, their name comes with it too.
    expect((await adjusterOk.json()).data.attributes.primary_adjuster_name).toBe('Sam Textmessage');
    expect((await adjuster('GET', '/integrations/users/norole@atrium.test/')).status).toBe(404);
  });

  it("an adjuster changes only their own settings; an administrator may change anyone's", async () => {
    const claimId = await openClaimId();
    const own = await json(adjuster, 'PATCH', '/integrations/users/settings/adjuster@atrium.test/', {
      claim_id: claimId,
    });
    expect(own.status).toBe(200);
    const others = await json(adjuster, 'PATCH', '/integrations/users/settings/sms@atrium.test/', {
      claim_id: claimId,
    });
    expect(others.status).toBe(403);
    const byAdmin = await json(admin, 'PATCH', '/integrations/users/settings/sms@atrium.test/', { claim_id: claimId });
    expect(byAdmin.status).toBe(200);
    expect((await byAdmin.json()).data.attributes.settings.claim_id).toBe(claimId);
  });
});
