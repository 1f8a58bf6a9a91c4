import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import claimsPlugin from '@atrium/plugin-claims/server';
import identityPlugin from '@atrium/plugin-identity/server';
import contactsPlugin from '../server/plugin.js';

type One = { data: { id: string; attributes: Record<string, any> } };
type Many = { data: { id: string; attributes: Record<string, any> }[] };

/** Duplicates and merging over real HTTP: what moves, what is refused, and the old id's way to the survivor. */
describe('contact merge', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, contactsPlugin, claimsPlugin] });
  });
  afterAll(() => server?.close());

  const api = (user: string) => as(server, user, { base: '/api', mediaType: 'jsonapi' });
  const create = async (caller: Awaited<ReturnType<typeof api>>, attributes: Record<string, unknown>) => {
    const response = await caller.post('/contacts/contacts/', { data: { type: 'contact', attributes } });
    if (response.status !== 201) throw new Error(await response.text());
    return ((await response.json()) as One).data;
  };
  const note = async (caller: Awaited<ReturnType<typeof api>>, contactId: string, text: string) => {
    const response = await caller.post('/contacts/notes/', {
      data: {
        type: 'contact-note',
        attributes: { text },
        relationships: { contact: { data: { type: 'contact', id: contactId } } },
      },
    });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  const merge = (caller: Awaited<ReturnType<typeof api>>, into: string, duplicate: unknown) =>
    caller.post(`/contacts/contacts/${into}/merge/`, {
      data: { type: 'contact-merge', attributes: { duplicate_id: duplicate } },
    });

  it('finds a duplicate, merges it in one go, and leads its old id and number to the survivor', async () => {
    const admin = await api('admin@atrium.test');
    const keep = await create(admin, {
      name: 'Robin Reed',
      roles: ['insured'],
      emails: [{ address: 'robin@example.test' }],
    });
    const twin = await create(admin, {
      name: 'robin reed ',
      roles: ['claimant'],
      emails: [{ address: 'Robin@example.test' }],
      phones: [{ number: '(555) 010-7788' }],
      ssn: '222-33-4444',
      dob: '1980-04-02',
    });
    const stranger = await create(admin, { name: 'Robin Reed', emails: [{ address: 'other@example.test' }] });
    const spouse = await create(admin, { name: 'Sam Reed' });
    await note(admin, keep.id, 'Prefers e-mail.');
    await note(admin, twin.id, 'Called about the hail claim.');
    const related = await admin.post('/contacts/relations/', {
      data: {
        type: 'contact-relation',
        attributes: { relation: 'spouse' },
        relationships: {
          contact: { data: { type: 'contact', id: twin.id } },
          related_contact: { data: { type: 'contact', id: spouse.id } },
        },
      },
    });
    expect(related.status).toBe(201);

    // Same name and a shared e-mail (any case): a candidate; same name alone is not.
    const found = await admin.get(`/contacts/contacts/${keep.id}/duplicates/`);
    expect(found.status).toBe(200);
    const candidates = ((await found.json()) as Many).data.map((c) => c.id);
    expect(candidates).toContain(twin.id);
    expect(candidates).not.toContain(stranger.id);

    // Merging is a data steward's job: the adjuster may edit contacts but not merge them.
    const adjuster = await api('adjuster@atrium.test');
    expect((await merge(adjuster, keep.id, twin.id)).status).toBe(403);
    expect((await merge(admin, keep.id, keep.id)).status).toBe(400);
    expect((await merge(admin, keep.id, 'CON-999999')).status).toBe(400);
    expect((await merge(admin, keep.id, 42)).status).toBe(400);

    const merged = await merge(admin, keep.id, twin.id);
    expect(merged.status).toBe(200);
    const survivor = ((await merged.json()) as One).data;
    expect(survivor.id).toBe(keep.id);
    expect(survivor.attributes).toMatchObject({
      name: 'Robin Reed',
      roles: ['insured', 'claimant'],
      emails: [{ address: 'robin@example.test' }],
      phones: [{ number: '(555) 010-7788' }],
      dob: '1980-04-02',
      ssn: '***-**-4444',
    });
    // The SSN was resealed for the survivor's row: it opens there in full.
    const ssn = await admin.get(`/contacts/contacts/${keep.id}/ssn/`);
    expect(await ssn.json()).toEqual({ ssn: '222-33-4444' });

    const notes = (await (await admin.get(`/contacts/notes/?filter[contact]=${keep.id}`)).json()) as Many;
    expect(notes.data.map((n) => n.attributes.text).sort()).toEqual([
      'Called about the hail claim.',
      'Prefers e-mail.',
    ]);
    const relations = await server.atrium.database.pool.query(
      `select contact_id, related_contact_id from contacts.contact_relation where related_contact_id = '${spouse.id}'`,
    );
    expect(relations.rows).toEqual([{ contact_id: keep.id, related_contact_id: spouse.id }]);

    expect((await admin.get(`/contacts/contacts/${twin.id}/`)).status).toBe(404);
    const where = await admin.get(`/contacts/merges/${twin.id}/`);
    expect(await where.json()).toMatchObject({
      duplicate_id: twin.id,
      survivor_id: keep.id,
      merged_by: 'admin@atrium.test',
    });
    // Claims' parties name contacts by number: the duplicate's number answers the survivor.
    const number = (id: string) => Number(id.slice(4));
    const byOldNumber = await as(server, 'adjuster@atrium.test', { base: '/api/claims', mediaType: 'jsonapi' }).then(
      (c) => c.get(`/integrations/contacts/${number(twin.id)}/`),
    );
    expect(byOldNumber.status).toBe(200);
    expect(((await byOldNumber.json()) as One).data.attributes).toMatchObject({ name: 'Robin Reed' });

    const activity = (await (await admin.get(`/contacts/contacts/${keep.id}/activity/`)).json()) as {
      data: { action: string; entity_type: string; username: string }[];
    };
    // Newest first: the SSN read after the merge, then the merge itself.
    expect(activity.data.slice(0, 2)).toMatchObject([
      { action: 'read-ssn', entity_type: 'contact', username: 'admin@atrium.test' },
      { action: 'merge', entity_type: 'contact', username: 'admin@atrium.test' },
    ]);
    expect(activity.data.map((e) => `${e.entity_type}:${e.action}`)).toEqual(
      expect.arrayContaining(['contact:merged', 'contact-note:create', 'contact:create']),
    );
  });

  it('refuses to merge away a producer or a contact who signs in, and a person into an organization', async () => {
    const admin = await api('admin@atrium.test');
    const alex = await create(admin, { name: 'Alex Agent (copy)', roles: ['insured'] });
    const producer = await merge(admin, alex.id, 'CON-AGENT-ALEX');
    expect(producer.status).toBe(409);
    expect(JSON.stringify(await producer.json())).toContain('merge the other way round');
    const org = await create(admin, { name: 'Reed Roofing', kind: 'organization' });
    expect((await merge(admin, org.id, alex.id)).status).toBe(409);
    const still = await admin.get('/contacts/contacts/CON-AGENT-ALEX/');
    expect(still.status).toBe(200);
  });
});
