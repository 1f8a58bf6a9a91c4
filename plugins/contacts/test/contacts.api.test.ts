import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecrets, parseSecretKeys, ssnVault } from '@atrium/sdk/server';
import { as, grantPolicy, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import claimsPlugin from '@atrium/plugin-claims/server';
import identityPlugin from '@atrium/plugin-identity/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import contactsPlugin from '../server/plugin.js';
import { resealStoredSsns } from '../server/ssn-reseal.js';

/** The key every test server runs with (sdk/testing/test-server.ts). */
const TEST_KEY = 'a7'.repeat(32);

type Doc = { data: { id: string; attributes: Record<string, any> }[] };

/** The contact store over real HTTP as the demo users: resources, book scope, SSNs, classic calls, claims of a contact. */
describe('contacts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      plugins: [identityPlugin, accessPlugin, contactsPlugin, policiesPlugin, claimsPlugin],
    });
  });
  afterAll(() => server?.close());

  const sql = (text: string) => server.atrium.database.pool.query(text);
  const api = (user: string) => as(server, user, { base: '/api', mediaType: 'jsonapi' });

  it('creates, reads and changes a contact; the SSN is sealed, masked and checked for duplicates', async () => {
    const adjuster = await api('adjuster@atrium.test');
    const created = await adjuster.post('/contacts/contacts/', {
      data: {
        type: 'contact',
        attributes: {
          name: 'Dana Driver',
          kind: 'person',
          roles: ['claimant'],
          emails: [{ address: 'dana@example.test' }],
          ssn: '123-45-6789',
        },
      },
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: string; attributes: Record<string, unknown> } };
    expect(data.id).toMatch(/^CON-\d+$/);
    expect(data.attributes).toMatchObject({ name: 'Dana Driver', ssn: '***-**-6789', has_ssn: true });
    const [stored] = (await sql(`select ssn_sealed, ssn_hash from contacts.contact where id = '${data.id}'`)).rows as {
      ssn_sealed: string;
      ssn_hash: string;
    }[];
    expect(stored!.ssn_sealed).toMatch(/^sealed:v1:/);
    expect(stored!.ssn_sealed).not.toContain('6789');
    const twin = await adjuster.post('/contacts/contacts/', {
      data: { type: 'contact', attributes: { name: 'Twin', ssn: '123456789' } },
    });
    expect(twin.status).toBe(400);
    expect(JSON.stringify(await twin.json())).toContain('duplicate_ssn');
    const bad = await adjuster.post('/contacts/contacts/', {
      data: { type: 'contact', attributes: { name: 'Bad', roles: ['wizard'] } },
    });
    expect(bad.status).toBe(400);
    const changed = await adjuster.patch(`/contacts/contacts/${data.id}/`, {
      data: { type: 'contact', id: data.id, attributes: { website: 'https://dana.example' } },
    });
    expect(changed.status).toBe(200);
    // Adjusters see SSNs masked only; administrators may read one in full, audited.
    expect((await adjuster.get(`/contacts/contacts/${data.id}/ssn/`)).status).toBe(403);
    const admin = await api('admin@atrium.test');
    expect(await (await admin.get(`/contacts/contacts/${data.id}/ssn/`)).json()).toEqual({ ssn: '123-45-6789' });
    const audit = (await sql(`select username from contacts.audit_entry where action = 'read-ssn'`)).rows as {
      username: string;
    }[];
    expect(audit.map((a) => a.username)).toEqual(['admin@atrium.test']);
  });

  it('has a contact for every party of the claims demo, listing its claims', async () => {
    const names = (await sql('select distinct name from claims.party order by name')).rows as {
      name: string;
    }[];
    expect(names.length).toBeGreaterThan(0);
    const adjuster = await api('adjuster@atrium.test');
    for (const { name } of names) {
      const found = (await (await adjuster.get(`/contacts/search/?q=${encodeURIComponent(name)}`)).json()) as Doc;
      expect(found.data.map((c) => c.attributes.name)).toContain(name);
    }
    const [first] = (
      (await (await adjuster.get(`/contacts/search/?q=${encodeURIComponent(names[0]!.name)}`)).json()) as Doc
    ).data;
    const claims = (await (await adjuster.get(`/contacts/contacts/${first!.id}/claims/`)).json()) as {
      results: { number: string; role: string }[];
    };
    // A party is the contact's by its contact_id, the contact's store number (CON-1001 is 1001).
    const expected = (
      await sql(
        `select count(*)::int as n from claims.party p join contacts.contact c on c.number = p.contact_id where c.id = '${first!.id}'`,
      )
    ).rows as { n: number }[];
    expect(expected[0]!.n).toBeGreaterThan(0);
    expect(claims.results.length).toBe(expected[0]!.n);
    expect(claims.results[0]!.number).toMatch(/-\d{6}$/);
    // Every demo party names the store contact of its name.
    const unlinked = (
      await sql(
        `select p.name from claims.party p left join contacts.contact c on c.number = p.contact_id where c.name is distinct from p.name`,
      )
    ).rows;
    expect(unlinked).toEqual([]);
  });

  it('has a contact for every named insured of the policies demo, in the book of its producer', async () => {
    const insureds = (
      await sql(
        `select p.named_insured_contact_id as id, p.named_insured_name as name, b.agent_contact_id as agent
           from policies.policy p left join contacts.contact c on c.id = p.named_insured_contact_id
           left join contacts.contact_book b on b.contact_id = c.id and b.agent_contact_id = p.agent_contact_id
          where c.name is distinct from p.named_insured_name or b.id is null`,
      )
    ).rows;
    expect(insureds).toEqual([]);
    const [count] = (await sql('select count(*)::int as n from policies.policy')).rows as { n: number }[];
    expect(count!.n).toBeGreaterThanOrEqual(10);
  });

  it('keeps agents and agencies to the contacts of their own book', async () => {
    const agent = await api('agent@agency.test');
    const list = (await (await agent.get('/contacts/contacts/?page[size]=100')).json()) as Doc & {
      meta: { count?: number };
    };
    const ids = list.data.map((c) => c.id);
    const own = (
      await sql(`select distinct contact_id from contacts.contact_book where agent_contact_id = 'CON-AGENT-ALEX'`)
    ).rows as { contact_id: string }[];
    expect(ids.sort()).toEqual(own.map((r) => r.contact_id).sort());
    expect(ids).not.toContain('CON-AGENT-NOOR');
    expect((await agent.get('/contacts/contacts/CON-AGENT-NOOR/')).status).toBe(404);
    expect((await agent.get('/contacts/contacts/CON-AGENT-ALEX/')).status).toBe(200);
    expect(
      (await agent.post('/contacts/contacts/', { data: { type: 'contact', attributes: { name: 'X' } } })).status,
    ).toBe(403);
    const search = (await (await agent.get('/contacts/search/?q=a')).json()) as Doc;
    expect(search.data.every((c) => ids.includes(c.id))).toBe(true);
    const agency = await api('agency@agency.test');
    const agencyIds = ((await (await agency.get('/contacts/contacts/?page[size]=100')).json()) as Doc).data.map(
      (c) => c.id,
    );
    expect(agencyIds).toContain('CON-AGENT-BLAKE');
    expect(agencyIds).not.toContain('CON-AGENT-NOOR');
    // The author's role has no contacts at all.
    expect((await (await api('author@atrium.test')).get('/contacts/contacts/')).status).toBe(403);
  });

  it('lets identity link a user to a contact of the store only (contact_id, agency_id)', async () => {
    const admin = await as(server, 'admin@atrium.test', {
      base: '/api/identity/user-management',
      mediaType: 'jsonapi',
    });
    const [user] = (await sql(`select id from identity.user where username = 'underwriter@atrium.test'`)).rows as {
      id: string;
    }[];
    const link = (attributes: Record<string, unknown>) =>
      admin.patch(`/users/${user!.id}`, { data: { type: 'user', id: user!.id, attributes } });
    const unknown = await link({ contact_id: 'CON-NOBODY' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain('Contact CON-NOBODY not found.');
    expect((await link({ contact_id: 'CON-AGENT-BLAKE', agency_id: 'CON-AGENCY-HARBOUR' })).status).toBe(200);
    expect((await link({ contact_id: null, agency_id: null })).status).toBe(200);
  });

  it('answers the classic v2 calls and the gateway files', async () => {
    const agent = await as(server, 'agent@agency.test', { base: '/api' });
    const me = await agent.post('/v2/contacts/get_contact_by_cognito_username', {
      cognito_username: 'agent@agency.test',
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: unknown }).data).toMatchObject({
      contactId: 'CON-AGENT-ALEX',
      name: 'Alex Agent',
      roles: ['agent'],
      agencies: [{ id: 'CON-AGENCY-HARBOUR' }],
    });
    const emails = await agent.post('/v2/contacts/list_emails_for_contact', { contact_id: 'CON-AGENT-ALEX' });
    expect(((await emails.json()) as { data: unknown }).data).toEqual([{ email: 'agent@agency.test', type: 'Work' }]);
    const related = await agent.post('/v2/contacts/retrieve_related_contacts', { contact_id: 'CON-AGENT-ALEX' });
    expect(((await related.json()) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ relation: 'Agent of', contactId: 'CON-AGENCY-HARBOUR' }),
    ]);
    const quoting = await agent.post('/v2/contacts/retrieve_quoting_permissions', { contact_id: 'CON-AGENT-ALEX' });
    expect(((await quoting.json()) as { data: unknown[] }).data).toContainEqual({
      product: 'Homeowners',
      state: 'NY',
      quote: true,
      submit: true,
      bind: true,
    });
    expect(
      (await agent.post('/v2/contacts/retrieve_quoting_permissions', { contact_id: 'CON-AGENT-NOOR' })).status,
    ).toBe(404);
    expect((await agent.post('/v2/contacts/list_emails_for_contact', {})).status).toBe(400);

    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api' });
    const list = await adjuster.post('/gateway?file=contacts.views&method=retrieveContactList', {
      searchString: 'agency',
      filter: 'agency',
      currentPage: 1,
      pageSize: 5,
    });
    expect(
      ((await list.json()) as { data: { contacts: { name: string }[] } }).data.contacts.map((c) => c.name),
    ).toEqual(['Harbour Agency', 'Northgate Agency']);
    const suggest = await adjuster.post('/gateway?file=more.ajax_suggest&method=ajaxSuggestContacts', {
      query: 'harb',
      searchParameters: { filters: {}, include: [] },
    });
    expect(((await suggest.json()) as { data: { name: string }[] }).data).toEqual([
      { id: 'CON-AGENCY-HARBOUR', name: 'Harbour Agency', email: 'agency@agency.test' },
    ]);
    const short = await adjuster.post('/gateway?file=more.ajax_suggest&method=ajaxSuggestEmails', { query: 'ag' });
    expect(((await short.json()) as { data: unknown[] }).data).toEqual([]);
    const mails = await adjuster.post('/gateway?file=more.ajax_suggest&method=ajaxSuggestEmails', {
      query: 'agency.test',
    });
    expect(((await mails.json()) as { data: { email: string }[] }).data.map((m) => m.email)).toContain(
      'agent@agency.test',
    );
    expect((await adjuster.post('/gateway?file=contacts.views&method=nope', {})).status).toBe(404);
    // Every signed-in caller reaches the gateway; the contact files need contacts:contact read.
    const author = await as(server, 'author@atrium.test', { base: '/api' });
    expect(
      (await author.post('/gateway?file=more.ajax_suggest&method=ajaxSuggestEmails', { query: 'abc' })).status,
    ).toBe(403);
    expect((await author.post('/gateway?file=more.oops_issue_tracker&method=submit_issue', {})).status).toBe(404);
    expect((await adjuster.post('/gateway?file=more.ajax_suggest&method=ajaxSuggestEmails', { query: 7 })).status).toBe(
      400,
    );
  });

  // Near the end: it gives the agent a second role.
  it("answers claims' contact paths from the store, within the caller's book", async () => {
    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api/claims', mediaType: 'jsonapi' });
    const all = (await (await adjuster.get('/integrations/contacts/?page[size]=100')).json()) as Doc;
    const [stored] = (await sql('select count(*)::int as n from contacts.contact')).rows as { n: number }[];
    expect(all.data).toHaveLength(stored!.n);
    const harbour = all.data.find((c) => c.attributes.name === 'Harbour Agency')!;
    const [number] = (await sql(`select number from contacts.contact where id = 'CON-AGENCY-HARBOUR'`)).rows as {
      number: number;
    }[];
    expect(harbour.id).toBe(String(number!.number));
    expect(harbour.attributes).toMatchObject({ kind: 'organization', email: 'agency@agency.test', has_ssn: false });
    const notes = (await (await adjuster.get(`/integrations/contacts/${harbour.id}/notes/`)).json()) as Doc;
    expect(notes.data.map((n) => n.attributes.text)).toEqual(['Appointed in NY, IL and CA since 2019.']);
    const relations = (await (await adjuster.get(`/integrations/contacts/${harbour.id}/relations/`)).json()) as Doc;
    expect(relations.data.map((r) => r.attributes.contact_name).sort()).toEqual(['Alex Agent', 'Blake Broker']);
    // Agents hold no claims:contact: the path is refused them.
    const agent = await as(server, 'agent@agency.test', { base: '/api/claims', mediaType: 'jsonapi' });
    expect((await agent.get('/integrations/contacts/')).status).toBe(403);
    // A role with claims:contact read and the contacts of its own book reads only that book there.
    await grantPolicy(server, {
      role: 'Book Contacts',
      username: 'agent@agency.test',
      policy: {
        name: 'Book contacts',
        statements: [
          { sid: 'ClaimsContacts', effect: 'allow', actions: ['read'], resources: ['claims:contact'] },
          {
            sid: 'OwnBook',
            effect: 'allow',
            actions: ['read'],
            resources: ['contacts:contact'],
            conditions: [{ attribute: 'record.agent_contact_id', operator: 'eq', value: { ref: 'user.contact_id' } }],
          },
        ],
      },
    });
    const booked = await as(server, 'agent@agency.test', {
      base: '/api/claims',
      mediaType: 'jsonapi',
      headers: { 'x-effective-role': 'Book Contacts' },
    });
    let mine = await booked.get('/integrations/contacts/?page[size]=100');
    for (let i = 0; i < 40 && mine.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mine = await booked.get('/integrations/contacts/?page[size]=100');
    }
    expect(mine.status).toBe(200);
    const own = (
      await sql(
        `select c.number from contacts.contact c where c.id in (select contact_id from contacts.contact_book where agent_contact_id = 'CON-AGENT-ALEX')`,
      )
    ).rows as { number: number }[];
    const ids = ((await mine.json()) as Doc).data.map((c) => c.id);
    expect(ids.sort()).toEqual(own.map((r) => String(r.number)).sort());
    const [noor] = (await sql(`select number from contacts.contact where id = 'CON-AGENT-NOOR'`)).rows as {
      number: number;
    }[];
    expect((await booked.get(`/integrations/contacts/${noor!.number}/`)).status).toBe(404);
    expect((await booked.get(`/integrations/contacts/${noor!.number}/notes/`)).status).toBe(404);
  });

  // Last: afterwards the server's own key no longer opens the resealed SSNs.
  it('reseals and rehashes SSNs under a new key after a rotation', async () => {
    const adjuster = await api('adjuster@atrium.test');
    const created = await adjuster.post('/contacts/contacts/', {
      data: { type: 'contact', attributes: { name: 'Rotated Person', ssn: '345-67-8906' } },
    });
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    const newKey = randomBytes(32);
    const rotated = createSecrets([newKey, ...parseSecretKeys(TEST_KEY)]);
    expect(await resealStoredSsns(server.atrium.database.db, rotated, server.atrium.log)).toBeGreaterThan(0);
    const [row] = (await sql(`select ssn_sealed, ssn_hash from contacts.contact where id = '${id}'`)).rows as {
      ssn_sealed: string;
      ssn_hash: string;
    }[];
    const newVault = ssnVault(createSecrets([newKey]));
    expect(newVault.open(row!.ssn_sealed, `contacts.contact:${id}:ssn`)).toBe('345-67-8906');
    expect(newVault.hashes('345678906')).toEqual([row!.ssn_hash]);
    expect(() =>
      ssnVault(createSecrets(parseSecretKeys(TEST_KEY))).open(row!.ssn_sealed, `contacts.contact:${id}:ssn`),
    ).toThrow();
    // Nothing left to do under the new key.
    expect(await resealStoredSsns(server.atrium.database.db, rotated, server.atrium.log)).toBe(0);
  });
});
