import { randomBytes } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecrets, HASHED_PREFIX, parseSecretKeys, SEALED_PREFIX, ssnVault } from '@atrium/sdk/server';
import { contact } from '../../server/core/tables.js';
import { ContactSsns } from '../../server/integrations/contact-ssns.js';
import { doc, startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * Issue 14, hole 9: contacts' SSNs are sealed at rest, answered masked unless the caller may read
 * SSNs (Administrator, Claims Supervisor), audited when answered in full, and compared by keyed hash.
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
const stored = async (id: string | number) => {
  const [row] = await db()
    .select()
    .from(contact)
    .where(eq(contact.id, Number(id)));
  return row!;
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
  it('seals the demo contacts’ SSNs, which the seed writes in plaintext, at start', async () => {
    const demo = () => db().select().from(contact).where(like(contact.email, '%@example.test'));
    let rows = await demo();
    for (let i = 0; i < 100 && rows.some((row) => row.legacySsn !== null); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = await demo();
    }
    expect(rows.length).toBeGreaterThanOrEqual(12);
    for (const row of rows) {
      expect(row.legacySsn).toBeNull();
      expect(testVault.open(row.ssnSealed!, `claims.contact:${row.id}:ssn`)).toMatch(/^900-00-10\d\d$/);
    }
    const first = rows.find((row) => testVault.open(row.ssnSealed!, `claims.contact:${row.id}:ssn`) === '900-00-1000')!;
    expect(await ssnOf(adjuster, first.id)).toBe('***-**-1000');
  });

  it('stores an SSN sealed and keyed-hashed, never in plaintext', async () => {
    const created = await create('Sealed Person', '345-67-8901');
    const row = await stored(created.id);
    expect(row.legacySsn).toBeNull();
    expect(row.ssnSealed!.startsWith(SEALED_PREFIX)).toBe(true);
    expect(row.ssnHash!.startsWith(HASHED_PREFIX)).toBe(true);
    for (const column of [row.ssnSealed!, row.ssnHash!]) {
      expect(column).not.toContain('345678901');
      expect(column).not.toContain('345-67-8901');
    }
    // Real AES-GCM bound to the row, and an HMAC of the digits under the installation's key.
    expect(testVault.open(row.ssnSealed!, `claims.contact:${created.id}:ssn`)).toBe('345-67-8901');
    expect(() => testVault.open(row.ssnSealed!, 'claims.contact:1:ssn')).toThrow();
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
    expect((await stored(id)).legacySsn).toBeNull();
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

  it('reads and compares rows still holding plaintext, and seals them', async () => {
    // A row as it was before sealing (or as the demo seed writes it).
    const [legacy] = await db()
      .insert(contact)
      .values({ name: 'Legacy Person', legacySsn: '456-78-9012' })
      .returning({ id: contact.id });
    const id = legacy!.id;
    const check = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=456789012')).json();
    expect(check.meta).toMatchObject({ duplicate: true, contact_ids: [id] });
    // The read (and the check) ask for a sealing pass in the background.
    let row = await stored(id);
    for (let i = 0; i < 100 && row.legacySsn !== null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      row = await stored(id);
    }
    expect(row.legacySsn).toBeNull();
    expect(testVault.open(row.ssnSealed!, `claims.contact:${id}:ssn`)).toBe('456-78-9012');
    expect(testVault.hashes('456-78-9012')).toContain(row.ssnHash);
    expect(await ssnOf(adjuster, id)).toBe('***-**-9012');
    expect(await ssnOf(supervisor, id)).toBe('456-78-9012');
    const stillFound = await (await adjuster('GET', '/integrations/contacts/validate-ssn/?ssn=456-78-9012')).json();
    expect(stillFound.meta.contact_ids).toEqual([id]);
  });

  it('tolerates a plaintext row on every read path before it is sealed', async () => {
    const [legacy] = await db()
      .insert(contact)
      .values({ name: 'Unsealed Person', legacySsn: '456789013' })
      .returning({ id: contact.id });
    // Read straight away: masked from the plaintext (whether or not the pass has run meanwhile).
    expect(await ssnOf(adjuster, legacy!.id)).toBe('***-**-9013');
    expect(await ssnOf(admin, legacy!.id)).toBe('456-78-9013');
  });

  it('reseals and rehashes under a new key after a rotation; the old key then only opens nothing', async () => {
    const { id } = await create('Rotated Person', '345-67-8906');
    const newKey = randomBytes(32);
    const rotated = createSecrets([newKey, ...parseSecretKeys(TEST_KEY)]);
    const rotating = new ContactSsns(db(), rotated, server.atrium.log);
    expect(await rotating.sealStored()).toBeGreaterThan(0);
    const row = await stored(id);
    const newVault = ssnVault(createSecrets([newKey]));
    expect(newVault.open(row.ssnSealed!, `claims.contact:${id}:ssn`)).toBe('345-67-8906');
    expect(newVault.hashes('345678906')).toEqual([row.ssnHash]);
    expect(() => testVault.open(row.ssnSealed!, `claims.contact:${id}:ssn`)).toThrow();
    // Nothing left to do under the new key.
    expect(await rotating.sealStored()).toBe(0);
  });
});
