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

const json = (caller: Caller, method: string, path: string, body: unknown) =>
  caller(method, path, JSON.stringify(body), { 'content-type': 'application/json', accept: 'application/json' });

describe('policies integration', () => {
  it('searches by policy number or insured name, 10 a page, newest first', async () => {
    const page = await (await adjuster('GET', '/integrations/policies/search/')).json();
    expect(page.data).toHaveLength(10);
    expect(page.meta.count).toBe(20);
    const dates = page.data.map((p: any) => p.attributes.date_added);
    expect([...dates].sort().reverse()).toEqual(dates);
    const byNumber = await (await adjuster('GET', '/integrations/policies/search/?policyNumber=ho-100200')).json();
    expect(byNumber.data.map((p: any) => p.attributes.policy_number)).toEqual(['HO-100200']);
    expect(byNumber.data[0].attributes.revisions[0].files[0].label).toBe('Declaration');
    const bad = await adjuster('GET', '/integrations/policies/search/?orderBy=sideways');
    expect(bad.status).toBe(400);
  });

  it('creates a policy with a revision, reads and patches the revision, and maintains policy types', async () => {
    const types = await (await adjuster('GET', '/integrations/policies/policy-types/')).json();
    const created = await adjuster(
      'POST',
      '/integrations/policies/',
      doc('policy', {
        policy_number: 'HO-900001',
        insured_name: 'Test Insured',
        revision: {
          number: 'HO-900001-R1',
          policy_type_id: Number(types.data[0].id),
          policy_term: { effective_date: '2026-01-01', expiration_date: '2027-01-01' },
        },
      }),
    );
    expect(created.status).toBe(201);
    const revisionId = (await created.json()).data.attributes.revisions[0].id;
    const patched = await adjuster('PATCH', `/integrations/policies/revisions/${revisionId}/`, {
      data: { type: 'policy-revision', id: String(revisionId), attributes: { description: 'Endorsed' } },
    });
    expect((await patched.json()).data.attributes.description).toBe('Endorsed');
    const backwards = await adjuster('PATCH', `/integrations/policies/revisions/${revisionId}/`, {
      data: {
        type: 'policy-revision',
        id: String(revisionId),
        attributes: { policy_term: { effective_date: '2026-01-01', expiration_date: '2025-01-01' } },
      },
    });
    expect(backwards.status).toBe(400);
    expect(await pointersOf(backwards)).toEqual(['/data/attributes/policy_term']);
    const duplicate = await adjuster(
      'POST',
      '/integrations/policies/policy-types/',
      doc('policy-type', { name: 'Homeowners', label: 'Again' }),
    );
    expect(duplicate.status).toBe(400);
    expect(await pointersOf(duplicate)).toEqual(['/data/attributes/name']);
    const missing = await adjuster('GET', '/integrations/policies/revisions/999999/');
    expect(missing.status).toBe(404);
  });
});

describe('users integration and assignment', () => {
  it('assigns claims to a user as primary adjuster and records claim assignments', async () => {
    const pending = await (await adjuster('GET', '/claims/?has_adjuster=false&status=open&page[size]=2')).json();
    const ids = pending.data.map((c: any) => Number(c.id));
    const assigned = await json(adjuster, 'POST', '/claims/users/admin@atrium.test/assign/claims/', { claim_ids: ids });
    expect(assigned.status).toBe(200);
    for (const id of ids) {
      const claim = await (await adjuster('GET', `/claims/${id}/`)).json();
      expect(claim.data.attributes.primary_adjuster).toBe('admin@atrium.test');
      const assignments = await (await adjuster('GET', `/integrations/users/claim-assignments/?claim_id=${id}`)).json();
      expect(assignments.data.map((a: any) => a.attributes.username)).toContain('admin@atrium.test');
    }
    const unknownUser = await json(adjuster, 'POST', '/claims/users/nobody@atrium.test/assign/claims/', {
      claim_ids: ids,
    });
    expect(unknownUser.status).toBe(404);
    const empty = await json(adjuster, 'POST', '/claims/users/admin@atrium.test/assign/claims/', { claim_ids: [] });
    expect(empty.status).toBe(400);
    const noAssign = await json(underwriter, 'POST', '/claims/users/admin@atrium.test/assign/claims/', {
      claim_ids: ids,
    });
    expect(noAssign.status).toBe(403);
  });

  it('lists roles and users, creates and deletes a claim assignment, changes settings', async () => {
    const roles = await (await adjuster('GET', '/integrations/users/roles/')).json();
    const roleId = Number(roles.data.find((r: any) => r.attributes.name === 'Supervisor').id);
    const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=1')).json();
    const claimId = Number(claims.data[0].id);
    const created = await json(adjuster, 'POST', '/integrations/users/claim-assignments/', {
      username: 'admin@atrium.test',
      role_id: roleId,
      claim_id: claimId,
    });
    expect(created.status).toBe(201);
    const again = await json(adjuster, 'POST', '/integrations/users/claim-assignments/', {
      username: 'admin@atrium.test',
      role_id: roleId,
      claim_id: claimId,
    });
    expect(again.status).toBe(409);
    const id = (await created.json()).data.id;
    expect((await adjuster('DELETE', `/integrations/users/claim-assignments/${id}/`)).status).toBe(204);
    expect((await adjuster('DELETE', `/integrations/users/claim-assignments/${id}/`)).status).toBe(404);
    const settings = await json(adjuster, 'PATCH', '/integrations/users/settings/adjuster@atrium.test/', {
      claim_id: claimId,
    });
    expect((await settings.json()).data.attributes.settings.claim_id).toBe(claimId);
    const user = await (await adjuster('GET', '/integrations/users/adjuster@atrium.test/')).json();
    expect(user.data.attributes.name).toBe('Casey Adjuster');
  });
});

describe('attachments integration', () => {
  it('uploads into a folder, lists, renames, moves and deletes; an unknown folder fails with the spec message', async () => {
    const folder = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment-folder', { name: 'Root', reference_id: 'REF-1' }),
    );
    expect(folder.status).toBe(201);
    const rootId = Number((await folder.json()).data.id);
    const sub = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment-folder', { name: 'Photos', reference_id: 'REF-1', parent_id: rootId }),
    );
    const subId = (await sub.json()).data.id;
    const content = Buffer.from('hello claims').toString('base64');
    const uploaded = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'a.txt', mime_type: 'text/plain', content, folder_id: rootId }),
    );
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()).data;
    expect(file.attributes.size).toBe(12);
    const listed = await (
      await adjuster('GET', `/integrations/attachments/${rootId}/?list_view=true&reference_id=REF-1`)
    ).json();
    expect(listed.data.map((a: any) => a.attributes.name)).toEqual(['a.txt']);
    expect(listed.included.map((f: any) => f.attributes.name)).toEqual(['Photos']);
    const tree = await (await adjuster('GET', `/integrations/attachments/${rootId}/folder-tree/`)).json();
    expect(tree.data.attributes.children.map((c: any) => c.name)).toEqual(['Photos']);
    const moved = await adjuster('PATCH', `/integrations/attachments/${subId}/move-attachments/`, {
      data: [{ type: 'attachment', id: file.id }],
    });
    expect(moved.status).toBe(200);
    const bytes = await adjuster('GET', `/integrations/attachments/${file.id}/content/`, undefined, { accept: '*/*' });
    expect(await bytes.text()).toBe('hello claims');
    const renamed = await adjuster('PATCH', `/integrations/attachments/${file.id}`, {
      data: { type: 'attachment', id: file.id, attributes: { name: 'b.txt' } },
    });
    expect((await renamed.json()).data.attributes.name).toBe('b.txt');
    expect((await adjuster('DELETE', `/integrations/attachments/${file.id}`)).status).toBe(204);
    const unknown = await adjuster('GET', '/integrations/attachments/999999/');
    expect(unknown.status).toBe(404);
    expect(await detailOf(unknown)).toBe('Failed to get attachments.');
    const notBase64 = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'x', mime_type: 'text/plain', content: '%%%', folder_id: rootId }),
    );
    expect(notBase64.status).toBe(400);
    expect(await pointersOf(notBase64)).toContain('/data/attributes/content');
  });
});

describe('contacts integration', () => {
  it('creates, replaces and reads contacts; looks up ZIPs and validates SSNs', async () => {
    const created = await adjuster(
      'POST',
      '/integrations/contacts/',
      doc('contact', { name: 'Jo Contact', email: 'jo@example.test' }),
    );
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id;
    const replaced = await adjuster('PUT', `/integrations/contacts/${id}/`, {
      data: { type: 'contact', id, attributes: { name: 'Jo Replaced' } },
    });
    expect((await replaced.json()).data.attributes.name).toBe('Jo Replaced');
    const badEmail = await adjuster(
      'POST',
      '/integrations/contacts/',
      doc('contact', { name: 'X', email: 'not-mail' }),
    );
    expect(await pointersOf(badEmail)).toEqual(['/data/attributes/email']);
    const zip = await (await adjuster('GET', '/integrations/contacts/address-by-zip/?zip=60601')).json();
    expect(zip.data.attributes).toMatchObject({ city: 'Chicago', state: 'IL' });
    expect((await adjuster('GET', '/integrations/contacts/address-by-zip/?zip=abc')).status).toBe(400);
    const duplicate = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=900-00-1000')).json();
    expect(duplicate.meta).toMatchObject({ duplicate: false, valid: false });
    const fresh = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=123-45-6789')).json();
    expect(fresh.meta).toMatchObject({ valid: true, duplicate: false, allowed: true });
    const genders = await (await adjuster('GET', '/integrations/contacts/genders/')).json();
    expect(genders.data.map((g: any) => g.attributes.name)).toContain('Female');
    expect((await adjuster('GET', `/integrations/contacts/${id}/notes/`)).status).toBe(200);
  });
});

describe('products and lookups', () => {
  it('lists products 100 a page, filters refdata by is_line, includes perils, creates one', async () => {
    const products = await (await adjuster('GET', '/products/')).json();
    expect(products.data.map((p: any) => p.attributes.name).sort()).toEqual(['Homeowners', 'Personal Auto']);
    expect(products.links.self).toContain('page%5Bsize%5D=100');
    const id = products.data.find((p: any) => p.attributes.name === 'Homeowners').id;
    const one = await (await adjuster('GET', `/products/${id}/?include=perils,risk_types`)).json();
    expect(one.included.filter((r: any) => r.type === 'peril').map((r: any) => r.attributes.name)).toContain('Fire');
    const lines = await (await adjuster('GET', '/claims/refdata/products/?is_line=false')).json();
    expect(lines.data).toHaveLength(0);
    const created = await adjuster(
      'POST',
      '/claims/refdata/products/',
      doc('product', { name: 'Umbrella', label: 'Umbrella' }),
    );
    expect(created.status).toBe(201);
    const again = await adjuster(
      'POST',
      '/claims/refdata/products/',
      doc('product', { name: 'Umbrella', label: 'Umbrella' }),
    );
    expect(await pointersOf(again)).toEqual(['/data/attributes/name']);
  });

  it('serves each lookup at its own path with create, update, delete and find', async () => {
    const perils = await (await adjuster('GET', '/perils/')).json();
    expect(perils.data.length).toBeGreaterThan(0);
    const created = await adjuster('POST', '/reported-methods/', doc('reported-method', { name: 'Fax', label: 'Fax' }));
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id;
    const updated = await adjuster('PATCH', `/reported-methods/${id}/`, {
      data: { type: 'reported-method', id, attributes: { expired: true } },
    });
    expect((await updated.json()).data.attributes.expired).toBe(true);
    expect((await adjuster('GET', `/perils/${id}/`)).status).toBe(404);
    expect((await adjuster('DELETE', `/reported-methods/${id}/`)).status).toBe(204);
    const missingLabel = await adjuster('POST', '/timezones/', doc('timezone', { name: 'UTC' }));
    expect(await pointersOf(missingLabel)).toEqual(['/data/attributes/label']);
    for (const path of [
      'risks',
      'risk-types',
      'locations',
      'on-site-services',
      'claim-events',
      'summary-claimants',
      'parties',
      'damages',
      'faults',
      'injuries',
      'coverages',
      'tags',
      'loss-categories',
      'claim-status-reasons',
      'audit-log',
    ]) {
      const response = await adjuster('GET', `/${path}/?page[size]=1`);
      expect(response.status, path).toBe(200);
    }
  });

  it('creates a party and a fault on a claim, refusing a percentage over 100', async () => {
    const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=1')).json();
    const claimId = claims.data[0].id;
    const claimRel = { claim: { data: { type: 'claim', id: claimId } } };
    const partyResponse = await adjuster(
      'POST',
      '/parties/',
      doc('party', { name: 'Witness One', display_number: 50, role: 'witness' }, { relationships: claimRel }),
    );
    expect(partyResponse.status).toBe(201);
    const partyId = (await partyResponse.json()).data.id;
    const tooMuch = await adjuster(
      'POST',
      '/faults/',
      doc('fault', { percentage_liable: '120' }, { relationships: claimRel }),
    );
    expect(await pointersOf(tooMuch)).toEqual(['/data/attributes/percentage_liable']);
    const fault = await adjuster(
      'POST',
      '/faults/',
      doc(
        'fault',
        { percentage_liable: '40.5' },
        { relationships: { ...claimRel, party: { data: { type: 'party', id: partyId } } } },
      ),
    );
    expect(fault.status).toBe(201);
    const noClaim = await adjuster('POST', '/risks/', doc('risk', { name: 'Car' }));
    expect(await pointersOf(noClaim)).toEqual(['/data/relationships/claim']);
    const partiesOfClaim = await (await adjuster('GET', `/parties/?filter[claim]=${claimId}`)).json();
    expect(partiesOfClaim.data.every((p: any) => p.relationships.claim.data.id === claimId)).toBe(true);
  });
});
