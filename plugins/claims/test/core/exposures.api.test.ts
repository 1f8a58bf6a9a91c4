import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doc, pointersOf, startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

let server: ClaimsTestServer;
let adjuster: Caller;
let agent: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  agent = await server.as('agent@agency.test');
}, 120_000);
afterAll(async () => server?.close());

describe('exposures', () => {
  it('numbers a new exposure after the claim’s others and refuses a party of another claim', async () => {
    const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=2')).json();
    const [first, second] = claims.data;
    const rel = (id: string) => ({ claim: { data: { type: 'claim', id } } });
    const before = first.relationships.exposures.data.length;
    const created = await adjuster(
      'POST',
      '/exposures/',
      doc('exposure', { exposure_name: 'Contents' }, { relationships: rel(first.id) }),
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.data.attributes.number).toBe(before + 1);
    expect(body.data.attributes.display_number).toBe(`${first.attributes.number}-${before + 1}`);
    const foreignParty = second.relationships.parties.data[0].id;
    const wrong = await adjuster(
      'POST',
      '/exposures/',
      doc(
        'exposure',
        {},
        { relationships: { ...rel(first.id), party: { data: { type: 'party', id: foreignParty } } } },
      ),
    );
    expect(wrong.status).toBe(400);
    expect(await pointersOf(wrong)).toEqual(['/data/relationships/party/data/id']);
    const noClaim = await adjuster('POST', '/exposures/', doc('exposure', {}));
    expect(await pointersOf(noClaim)).toEqual(['/data/relationships/claim']);
    expect((await adjuster('DELETE', `/exposures/${body.data.id}/`)).status).toBe(409);
    expect((await adjuster('DELETE', `/claims/${first.id}/`)).status).toBe(409);
  });

  it('claims under a coverage of the policy revision: stores its type and revision, shows its label', async () => {
    // The demo's claims are on the policies module's policies: two open ones move to mock policies
    // (Mock Policies Maintenance's test policies, each with its revision) through the API first.
    const { rows: mocks } = await server.atrium.database.pool.query<{ id: number; number: string; revision: number }>(
      `SELECT p.id, p.policy_number AS number, r.id AS revision FROM claims.mock_policy p
         JOIN claims.policy_revision r ON r.policy_id = p.id ORDER BY p.id LIMIT 2`,
    );
    const open = (await (await adjuster('GET', '/claims/?filter[status]=open&page[size]=2')).json()).data;
    for (const [i, c] of open.entries()) {
      const attributes = {
        policy_id: mocks[i]!.id,
        policy_number: mocks[i]!.number,
        policy_revision_id: mocks[i]!.revision,
      };
      const moved = await adjuster('PATCH', `/claims/${c.id}/`, { data: { type: 'claim', id: c.id, attributes } });
      expect(moved.status).toBe(200);
    }
    const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=50')).json();
    const withPolicy = claims.data.filter((c: any) => c.attributes.policy_revision_id);
    const first = withPolicy[0];
    const other = withPolicy.find((c: any) => c.attributes.policy_id !== first.attributes.policy_id);
    const revisionId = first.attributes.policy_revision_id;
    const revision = await (await adjuster('GET', `/integrations/policies/revisions/${revisionId}/`)).json();
    const [cover, second] = revision.data.attributes.coverages;
    expect(cover.coverage_type).toBeTruthy();
    const rel = { claim: { data: { type: 'claim', id: first.id } } };
    const created = await adjuster(
      'POST',
      '/exposures/',
      doc('exposure', { coverage_type: cover.coverage_type }, { relationships: rel }),
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.data.attributes).toMatchObject({
      coverage_type: cover.coverage_type,
      policy_revision_id: revisionId,
      coverage_name: cover.label,
      exposure_name: cover.label,
    });

    // A coverage the revision does not list, or a revision of another policy: 400 on the attribute.
    const unknown = await adjuster(
      'POST',
      '/exposures/',
      doc('exposure', { coverage_type: 'No Such Coverage' }, { relationships: rel }),
    );
    expect(unknown.status).toBe(400);
    expect(await pointersOf(unknown)).toEqual(['/data/attributes/coverage_type']);
    const foreign = await adjuster(
      'POST',
      '/exposures/',
      doc(
        'exposure',
        { coverage_type: cover.coverage_type, policy_revision_id: other.attributes.policy_revision_id },
        { relationships: rel },
      ),
    );
    expect(foreign.status).toBe(400);
    expect(await pointersOf(foreign)).toEqual(['/data/attributes/policy_revision_id']);

    // Edited to another coverage of the revision, then cleared.
    const id = body.data.id;
    const moved = await adjuster('PATCH', `/exposures/${id}/`, {
      data: { type: 'exposure', id, attributes: { coverage_type: second.coverage_type } },
    });
    expect(moved.status).toBe(200);
    expect((await moved.json()).data.attributes).toMatchObject({
      coverage_type: second.coverage_type,
      policy_revision_id: revisionId,
      coverage_name: second.label,
    });
    const cleared = await adjuster('PATCH', `/exposures/${id}/`, {
      data: { type: 'exposure', id, attributes: { coverage_type: null } },
    });
    expect((await cleared.json()).data.attributes).toMatchObject({ coverage_type: null, policy_revision_id: null });
  });

  it('lets an agent create and read claims but not change them', async () => {
    const created = await agent('POST', '/claims/', doc('claim', { loss_description: 'Reported by the agency' }));
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id;
    expect((await agent('GET', `/claims/${id}/`)).status).toBe(200);
    const patch = await agent('PATCH', `/claims/${id}/`, {
      data: { type: 'claim', id, attributes: { loss_description: 'x' } },
    });
    expect(patch.status).toBe(403);
    expect((await adjuster('DELETE', `/claims/${id}/`)).status).toBe(204);
    expect((await adjuster('GET', `/claims/${id}/`)).status).toBe(404);
  });

  it('documents every claims route in the OpenAPI document', async () => {
    const response = await server.fetch('/api/docs/json');
    expect(response.status).toBe(200);
    const paths = Object.keys(((await response.json()) as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/api/claims/claims/');
    expect(paths).toContain('/api/claims/integrations/policies/search/');
  });
});
