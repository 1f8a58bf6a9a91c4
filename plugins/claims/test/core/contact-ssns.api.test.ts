import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import contactsPlugin from '@atrium/plugin-contacts/server';
import { CONTACT_RECORDS, type ContactRecords } from '@atrium/plugin-contacts/records';
import {
  createSecrets,
  HASHED_PREFIX,
  parseSecretKeys,
  SEALED_PREFIX,
  ssnVault,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { contact, party } from '../../server/core/tables.js';
import { handOverContactsOnce } from '../../server/integrations/contact-handover.js';
import { doc, startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * Issue 14, hole 9: contacts' SSNs are sealed at rest, answered masked unless the caller may read
 * SSNs (Administrator, Claims Supervisor), audited when answered in full, and compared by keyed hash.
 * Since issue 17 the contacts are the contact store's (contacts.records): the storage checks read
 * the store's row of the contact's number, sealed under `contacts.contact:<CON-id>:ssn`; rows left
 * in claims' own tables move in at start (contact-handover.ts).
 */
let server: ClaimsTestServer;
let adjuster: Caller;
let supervisor: Caller;
let admin: Caller;

/** The key every test server runs with (sdk/testing/test-server.ts). */
const TEST_KEY = 'a7'.repeat(32);
const testVault = ssnVault(createSecrets(parseSecretKeys(TEST_KEY)));

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  supervisor = await server.as('supervisor@atrium.test');
  admin = await server.as('admin@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

const db = () => server.atrium.database.db;
/** The store's row of a contact number (a test may read it; the claims module never does). */
const stored = async (id: string | number) => {
  const rows = (
    await db().execute(
      sql`select id, ssn_sealed as "ssnSealed", ssn_hash as "ssnHash" from contacts.contact where number = ${Number(id)}`,
    )
  ).rows as { id: string; ssnSealed: string | null; ssnHash: string | null }[];
  return rows[0]!;
};
const create = async (name: string, ssn: string) => {
  const response = await adjuster('POST', '/integrations/contacts/', doc('contact', { name, ssn }));
  expect(response.status).toBe(201);
  return (await response.json()).data as { id: string; attributes: Record<string, unknown> };
};
const ssnOf = async (caller: Caller, id: string | number) => {
  const response = await caller('GET', `/integrations/contacts/${id}/`);
  expect(response.status).toBe(200);
  return (await response.json()).data.attributes.ssn as string | null;
};
const ssnReads = async (id: string | number) => {
  const audit = await (
    await admin('GET', `/audit-log/?filter[entity_type]=contact&filter[entity_id]=${id}&page[size]=250`)
  ).json();
  return (audit.data as { attributes: { action: string; username: string } }[])
    .filter((entry) => entry.attributes.action === 'read-ssn')
    .map((entry) => entry.attributes.username);
};

describe('SSNs at rest', () => {
  it('answers the demo contacts of the store, which carry no SSN', async () => {
    const demo = await (
      await adjuster('GET', '/integrations/contacts/?filter[email]=example.test&page[size]=50')
    ).json();
    expect(demo.data.length).toBeGreaterThanOrEqual(10);
    for (const c of demo.data) expect(c.attributes).toMatchObject({ has_ssn: false, ssn: null });
  });

  it('stores an SSN sealed and keyed-hashed, never in plaintext', async () => {
    const created = await create('Sealed Person', '345-67-8901');
    const row = await stored(created.id);
    expect(row.id).toBe(`CON-${created.id}`);
    expect(row.ssnSealed!.startsWith(SEALED_PREFIX)).toBe(true);
    expect(row.ssnHash!.startsWith(HASHED_PREFIX)).toBe(true);
    for (const column of [row.ssnSealed!, row.ssnHash!]) {
      expect(column).not.toContain('345678901');
      expect(column).not.toContain('345-67-8901');
    }
    // Real AES-GCM bound to the row, and an HMAC of the digits under the installation's key.
    expect(testVault.open(row.ssnSealed!, `contacts.contact:${row.id}:ssn`)).toBe('345-67-8901');
    expect(() => testVault.open(row.ssnSealed!, 'contacts.contact:CON-1:ssn')).toThrow();
    expect(testVault.hashes('345678901')).toContain(row.ssnHash);
  });

  it('answers the SSN masked to an adjuster, and does not audit that', async () => {
    const { id, attributes } = await create('Masked Person', '345-67-8902');
    expect(attributes).toMatchObject({ ssn: '***-**-8902', has_ssn: true, ssn_last4: '8902' });
    expect(await ssnOf(adjuster, id)).toBe('***-**-8902');
    const list = await (await adjuster('GET', '/integrations/contacts/?filter[name]=Masked%20Person')).json();
    expect(list.data[0].attributes.ssn).toBe('***-**-8902');
    expect(await ssnReads(id)).toEqual([]);
  });

  it('answers one contact’s SSN in full to a supervisor and an administrator, each read audited', async () => {
    const { id } = await create('Revealed Person', '345-67-8903');
    expect(await ssnOf(supervisor, id)).toBe('345-67-8903');
    expect(await ssnOf(admin, id)).toBe('345-67-8903');
    expect((await ssnReads(id)).sort()).toEqual(['admin@atrium.test', 'supervisor@atrium.test']);
    // A list never unmasks, for anyone (and so audits nothing).
    const list = await (await supervisor('GET', '/integrations/contacts/?filter[name]=Revealed%20Person')).json();
    expect(list.data[0].attributes.ssn).toBe('***-**-8903');
    expect(await ssnReads(id)).toHaveLength(2);
    // A contact without an SSN: nothing shown, nothing audited.
    const none = (await (await admin('POST', '/integrations/contacts/', doc('contact', { name: 'No Ssn' }))).json())
      .data;
    expect(await ssnOf(admin, none.id)).toBeNull();
    expect(await ssnReads(none.id)).toEqual([]);
  });

  it('finds a duplicate through the keyed hash, dashes or not', async () => {
    const { id } = await create('Original Holder', '345-67-8904');
    expect((await stored(id)).ssnHash).not.toBeNull();
    const check = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=345678904')).json();
    expect(check.meta).toMatchObject({ valid: true, duplicate: true, allowed: false, contact_ids: [Number(id)] });
    const again = await adjuster(
      'POST',
      '/integrations/contacts/',
      doc('contact', { name: 'Copycat', ssn: '345678904' }),
    );
    expect(again.status).toBe(400);
    expect((await again.json()).errors[0]).toMatchObject({ code: 'duplicate_ssn' });
    // Changing the SSN rehashes: the old number is free, the new one taken.
    await adjuster('PATCH', `/integrations/contacts/${id}/`, {
      data: { type: 'contact', id, attributes: { ssn: '345-67-8905' } },
    });
    const freed = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=345-67-8904')).json();
    expect(freed.meta).toMatchObject({ duplicate: false, allowed: true });
    const taken = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=345-67-8905')).json();
    expect(taken.meta.contact_ids).toEqual([Number(id)]);
  });

  it("moves rows left in claims' own tables into the store, SSNs resealed and parties following", async () => {
    // A row as claims kept it before the contact store (plaintext SSN, as its demo seed wrote it),
    // one sealed under claims' context, and a party naming the first by its claims id.
    // Its claims id is a number the store already uses: it gets another, and the party follows.
    await db().execute(
      sql`insert into claims.contact (id, name, ssn, email) overriding system value values (1015, 'Legacy Person', '456-78-9012', 'legacy@moved.test')`,
    );
    const [sealedRow] = await db().insert(contact).values({ name: 'Sealed Legacy' }).returning({ id: contact.id });
    const sealedId = sealedRow!.id;
    const sealed = testVault.seal('456-78-9013', `claims.contact:${sealedId}:ssn`);
    await db().update(contact).set({ ssnSealed: sealed.sealed, ssnHash: sealed.hash }).where(eq(contact.id, sealedId));
    const [someParty] = await db().select({ id: party.id }).from(party).limit(1);
    await db().update(party).set({ contactId: 1015 }).where(eq(party.id, someParty!.id));

    // The context the claims module starts the handover with: the database, the installation's key.
    const context = {
      db: db(),
      secrets: createSecrets(parseSecretKeys(TEST_KEY)),
      log: server.atrium.log,
      services: {},
    } as unknown as ServerPluginContext;
    const provision = contactsPlugin.provides!.services!.find((p) => p.ref.id === CONTACT_RECORDS.id)!;
    const records = provision.create(context) as ContactRecords;
    expect(await handOverContactsOnce(context, records)).toBe(2);
    expect(await db().select().from(contact)).toEqual([]);
    expect(await handOverContactsOnce(context, records)).toBe(0);

    const moved = await (await adjuster('GET', '/integrations/contacts/?filter[name]=Legacy%20Person')).json();
    expect(moved.data).toHaveLength(1);
    const movedId = moved.data[0].id as string;
    expect(movedId).not.toBe('1015');
    expect(moved.data[0].attributes).toMatchObject({ email: 'legacy@moved.test', ssn: '***-**-9012' });
    const [linked] = await db().select({ contactId: party.contactId }).from(party).where(eq(party.id, someParty!.id));
    expect(linked!.contactId).toBe(Number(movedId));
    const row = await stored(movedId);
    expect(testVault.open(row.ssnSealed!, `contacts.contact:${row.id}:ssn`)).toBe('456-78-9012');
    expect(await ssnOf(supervisor, movedId)).toBe('456-78-9012');
    // The sealed one kept its claims id as its number, resealed under the store's context.
    expect(await ssnOf(admin, sealedId)).toBe('456-78-9013');
    const check = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=456789012')).json();
    expect(check.meta).toMatchObject({ duplicate: true, contact_ids: [Number(movedId)] });
  });
});
