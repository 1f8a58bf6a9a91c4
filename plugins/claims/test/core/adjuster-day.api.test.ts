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
 * An adjuster's day on the API (issue 15): policy coverages at FNOL, payment methods and payees,
 * the claim balance, attachment folders, and the server-set fields and dates of issue 14.
 */
let server: ClaimsTestServer;
let adjuster: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
}, 180_000);
afterAll(async () => server?.close());

const policyNamed = async (number: string) => {
  const found = await (await adjuster('GET', `/integrations/policies/search/?policyNumber=${number}`)).json();
  return found.data[0] as { id: string; attributes: { revisions: { id: number; coverages: any[] }[] } };
};

/** Files an FNOL on the policy (draft with claimants, then submit); answers the submitted claim. */
async function fileFnol(policyNumber: string, claimants: Record<string, unknown>[]) {
  const policy = await policyNamed(policyNumber);
  const revisionId = policy.attributes.revisions[0]!.id;
  const created = await adjuster(
    'POST',
    '/claims/',
    doc('claim', {
      status: 'draft',
      policy_id: Number(policy.id),
      policy_number: policyNumber,
      policy_revision_id: revisionId,
      policy_type: policyNumber.startsWith('PA') ? 'Personal Auto' : 'Homeowners',
      loss_description: 'Rear-ended at a light',
      date_of_loss: '2026-10-01',
      claimants,
    }),
  );
  expect(created.status).toBe(201);
  const id = (await created.json()).data.id as string;
  const submitted = await adjuster(
    'POST',
    `/claims/${id}/submit/`,
    { data: { type: 'claim', id, attributes: {} } },
    { 'if-match': created.headers.get('etag')! },
  );
  return { id, revisionId, submitted };
}

describe('policy coverages at FNOL (issue 15, item 2)', () => {
  it('serves every demo policy revision with its coverages: type, label, limit, deductible, risk', async () => {
    const policy = await policyNamed('HO-100200');
    const revisionId = policy.attributes.revisions[0]!.id;
    const revision = await (await adjuster('GET', `/integrations/policies/revisions/${revisionId}/`)).json();
    expect(revision.data.attributes.coverages).toEqual([
      { coverage_type: 'Dwelling', label: 'Dwelling', limit: '300000.00', deductible: '1000.00', risk: '100 Main St' },
      {
        coverage_type: 'Personal Property',
        label: 'Personal Property',
        limit: '150000.00',
        deductible: '1000.00',
        risk: '100 Main St',
      },
      { coverage_type: 'Liability', label: 'Liability', limit: '300000.00', deductible: '0.00', risk: '100 Main St' },
    ]);
    const all = await (await adjuster('GET', '/integrations/policies/search/?page_size=100')).json();
    for (const p of all.data) expect(p.attributes.revisions[0].coverages.length).toBeGreaterThan(0);
  });

  it('changes a revision’s coverages and refuses a bad amount or a coverage listed twice', async () => {
    const policy = await policyNamed('PA-100201');
    const id = String(policy.attributes.revisions[0]!.id);
    const patch = (coverages: unknown[]) =>
      adjuster('PATCH', `/integrations/policies/revisions/${id}/`, {
        data: { type: 'policy-revision', id, attributes: { coverages } },
      });
    const bad = await patch([{ coverage_type: 'Collision', limit: '12.345', deductible: '0' }]);
    expect(bad.status).toBe(400);
    expect((await pointersOf(bad))[0]).toMatch(/^\/data\/attributes\/coverages/);
    const twice = await patch([
      { coverage_type: 'Collision', limit: '1.00', deductible: '0' },
      { coverage_type: 'Collision', limit: '2.00', deductible: '0' },
    ]);
    expect(twice.status).toBe(400);
    expect(await detailOf(twice)).toBe('Coverage Collision is listed twice.');
    const ok = await patch([
      { coverage_type: 'Collision', limit: '50000.00', deductible: '500.00', risk: '2011 Sedan' },
      { coverage_type: 'Towing', label: 'Towing and Labor', limit: '200.00', deductible: '0.00' },
    ]);
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.attributes.coverages[1]).toEqual({
      coverage_type: 'Towing',
      label: 'Towing and Labor',
      limit: '200.00',
      deductible: '0.00',
      risk: '',
    });
  });

  it('an FNOL exposure keeps the coverage type and revision id; the exposure shows names', async () => {
    const { id, revisionId, submitted } = await fileFnol('PA-100211', [
      { claimant_name: 'Pat Driver', coverage_type: 'Collision', coverage: 'Collision', description: 'Rear bumper' },
    ]);
    expect(submitted.status).toBe(200);
    const exposures = await (await adjuster('GET', `/exposures/?filter[claim_id]=${id}`)).json();
    expect(exposures.data).toHaveLength(1);
    expect(exposures.data[0].attributes).toMatchObject({
      exposure_name: 'Collision',
      coverage_type: 'Collision',
      policy_revision_id: revisionId,
      coverage_name: 'Collision',
      claimant_name: 'Pat Driver',
    });
  });

  it('refuses a coverage the policy revision does not list (400 on claimants)', async () => {
    const { submitted } = await fileFnol('PA-100211', [
      { claimant_name: 'Pat Driver', coverage_type: 'Dwelling', description: '' },
    ]);
    expect(submitted.status).toBe(400);
    expect(await pointersOf(submitted)).toEqual(['/data/attributes/claimants']);
  });

  it('seeded exposures name their coverage and claimant', async () => {
    const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=1')).json();
    const exposures = await (await adjuster('GET', `/exposures/?filter[claim_id]=${claims.data[0].id}`)).json();
    for (const e of exposures.data) {
      expect(e.attributes.coverage_name).toMatch(/^[A-Z][a-z]/);
      expect(e.attributes.claimant_name).toMatch(/^[A-Z][a-z]+ [A-Z]/);
      expect(e.attributes.coverage_type).toBe(e.attributes.coverage_name);
      expect(e.attributes.policy_revision_id).toEqual(expect.any(Number));
    }
  });
});
