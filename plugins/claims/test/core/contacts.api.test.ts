import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

/** The contacts integration as the Parties tab uses it: search, create, replace, SSN rules, notes, relations. */
let server: ClaimsTestServer;
let adjuster: Caller;
let underwriter: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  underwriter = await server.as('underwriter@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

const create = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  adjuster('POST', '/integrations/contacts/', doc('contact', attributes, extra));

describe('contacts integration', () => {
  it('searches by part of the name, e-mail or phone in any case, pages and sorts by name', async () => {
    await create({ name: 'Zelda Searchable', email: 'zelda.search@example.test', phone: '+1 555 7788' });
    const byName = await (await adjuster('GET', '/integrations/contacts/?filter[name]=ELDA%20sea')).json();
    expect(byName.data.map((c: any) => c.attributes.name)).toEqual(['Zelda Searchable']);
    const byMail = await (await adjuster('GET', '/integrations/contacts/?filter[email]=zelda.SEARCH')).json();
    expect(byMail.data).toHaveLength(1);
    const byPhone = await (await adjuster('GET', '/integrations/contacts/?filter[phone]=7788')).json();
    expect(byPhone.data).toHaveLength(1);
    // A % in the text is a literal character, not a wildcard.
    const literal = await (await adjuster('GET', '/integrations/contacts/?filter[name]=%25')).json();
    expect(literal.data).toHaveLength(0);
    const page = await (await adjuster('GET', '/integrations/contacts/?page[size]=5&page[number]=1')).json();
    expect(page.data).toHaveLength(5);
    expect(page.meta.count).toBeGreaterThanOrEqual(13);
    const names = page.data.map((c: any) => c.attributes.name.toLowerCase());
    expect([...names].sort()).toEqual(names);
    const badSort = await adjuster('GET', '/integrations/contacts/?sort=sideways');
    expect(badSort.status).toBe(400);
  });

  it('creates a contact with an SSN that is answered masked, and refuses a malformed or duplicate SSN', async () => {
    const genders = await (await adjuster('GET', '/integrations/contacts/genders/')).json();
    const female = genders.data.find((g: any) => g.attributes.name === 'Female').id;
    const created = await create(
      {
        first_name: 'Pat',
        last_name: 'Ssn',
        name: 'Pat Ssn',
        ssn: '123-45-6780',
        addresses: [{ type: 'Home', line1: '1 Elm St', zip: '60601', city: 'Chicago', state: 'IL' }],
      },
      { relationships: { gender: { data: { type: 'gender', id: female } } } },
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.data.attributes).toMatchObject({ has_ssn: true, ssn_last4: '6780', ssn: '***-**-6780' });
    expect(body.data.relationships.gender.data.id).toBe(female);
    expect(JSON.stringify(body)).not.toContain('123456780');

    const check = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=123456780')).json();
    expect(check.meta).toMatchObject({
      valid: true,
      duplicate: true,
      allowed: false,
      contact_ids: [Number(body.data.id)],
    });
    const own = await (
      await adjuster('GET', `/integrations/contacts/validate-ssn/?ssn=123-45-6780&contact_id=${body.data.id}`)
    ).json();
    expect(own.meta).toMatchObject({ duplicate: false, allowed: true });
    expect((await (await adjuster('GET', '/integrations/contacts/allow-duplicate-ssn/')).json()).meta).toEqual({
      allow_duplicate_ssn: false,
    });

    const duplicate = await create({ name: 'Other Person', ssn: '123456780' });
    expect(duplicate.status).toBe(400);
    const error = (await duplicate.json()).errors[0];
    expect(error).toMatchObject({
      detail: 'Another contact already has this SSN.',
      code: 'duplicate_ssn',
      source: { pointer: '/data/attributes/ssn' },
    });
    const malformed = await create({ name: 'Other Person', ssn: '000-12-3456' });
    expect(await pointersOf(malformed)).toEqual(['/data/attributes/ssn']);
    const badZip = await create({ name: 'Other Person', addresses: [{ zip: '6060' }] });
    expect(await pointersOf(badZip)).toEqual(['/data/attributes/addresses/0/zip']);
    const badGender = await create(
      { name: 'Other Person' },
      { relationships: { gender: { data: { type: 'gender', id: '999999' } } } },
    );
    expect(await pointersOf(badGender)).toEqual(['/data/relationships/gender/data/id']);
    // Nothing half-written: none of the refused contacts exists.
    const others = await (await adjuster('GET', '/integrations/contacts/?filter[name]=Other%20Person')).json();
    expect(others.data).toHaveLength(0);
  });

  it('replaces with PUT (the own SSN is no duplicate), clears the SSN with null, and audits without it', async () => {
    const id = (await (await create({ name: 'Robin Put', ssn: '234-56-7890' })).json()).data.id;
    const replaced = await adjuster('PUT', `/integrations/contacts/${id}/`, {
      data: { type: 'contact', id, attributes: { name: 'Robin Replaced', ssn: '234-56-7890', phone: '+1 555 0000' } },
    });
    expect(replaced.status).toBe(200);
    expect((await replaced.json()).data.attributes).toMatchObject({ name: 'Robin Replaced', has_ssn: true });
    const cleared = await adjuster('PATCH', `/integrations/contacts/${id}/`, {
      data: { type: 'contact', id, attributes: { ssn: null } },
    });
    expect((await cleared.json()).data.attributes.has_ssn).toBe(false);
    const wrongId = await adjuster('PUT', `/integrations/contacts/${id}/`, {
      data: { type: 'contact', id: '1', attributes: { name: 'X' } },
    });
    expect(wrongId.status).toBe(409);
    expect((await adjuster('GET', '/integrations/contacts/99999/')).status).toBe(404);
    expect(await detailOf(await adjuster('GET', '/integrations/contacts/99999/notes/'))).toBe(
      'Contact 99999 not found.',
    );
    const audit = await (
      await adjuster('GET', `/audit-log/?filter[entity_type]=contact&filter[entity_id]=${id}&page[size]=250`)
    ).json();
    expect(audit.data.map((e: any) => e.attributes.action).sort()).toEqual(['create', 'update', 'update']);
    expect(JSON.stringify(audit.data)).not.toContain('234567890');
    expect(JSON.stringify(audit.data)).not.toContain('234-56-7890');
    // Nor the sealed value or its keyed hash.
    expect(JSON.stringify(audit.data)).not.toMatch(/sealed:v1|hmac:v1/);
  });

  it('lists notes and relations of a contact with the related names; readers may not write', async () => {
    const list = await (await adjuster('GET', '/integrations/contacts/?sort=id&page[size]=2')).json();
    const [first] = list.data;
    const relations = await adjuster('GET', `/integrations/contacts/${first.id}/relations/`);
    expect(relations.status).toBe(200);
    const notes = await adjuster('GET', `/integrations/contacts/${first.id}/notes/`);
    expect(notes.status).toBe(200);
    const refused = await underwriter('POST', '/integrations/contacts/', doc('contact', { name: 'Not Mine' }));
    expect(refused.status).toBe(403);
  });
});
