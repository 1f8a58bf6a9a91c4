import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { maskSsn, SecretOpenError, ssnDigits, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import type { Caller, ContactRecord, ContactRecords, RecordInput } from '../shared/contact-records.js';
import { contactStore, ssnContext, writeAudit, type ContactRow } from './contact-store.js';
import { likeText } from './contact-routes.js';
import { contact, contactMerge, contactNote, contactRelation, zipCode } from './tables.js';

/** The next number of the store's sequence (`CON-<number>` for new contacts). */
export async function nextContactNumber(tx: Queryable): Promise<number> {
  const [next] = (await tx.execute(sql`select nextval('contacts.contact_number') as n`)).rows as {
    n: string | number;
  }[];
  return Number(next!.n);
}

/** `a` where any element's `key` contains the text (any case). */
const listContains = (column: typeof contact.emails | typeof contact.phones, key: string, text: string) =>
  sql`exists (select 1 from jsonb_array_elements(${column}) as e where e->>${key} ilike ${likeText(text)})`;

/** The first entry of an e-mail or phone list changed to `value` ('' removes it), the rest kept. */
function withFirst<T extends object>(list: T[], key: keyof T, value: string): T[] {
  const [first, ...rest] = list;
  if (value === '') return rest;
  return [{ ...(first ?? {}), [key]: value } as T, ...rest];
}

/** The contacts.records service (shared/contact-records.ts): the claims integration over the store. */
export function createContactRecords(context: ServerPluginContext): ContactRecords {
  const store = contactStore(context);
  const vault = store.vault;
  const scopeOf = (caller: Caller) => store.readScope(caller as FastifyRequest);

  const ssnOf = (row: ContactRow, reveal: boolean): ContactRecord['ssn'] => {
    if (!row.ssnSealed) return { onFile: false, masked: null, last4: null, full: null };
    try {
      const ssn = vault.open(row.ssnSealed, ssnContext(row.id));
      return { onFile: true, masked: maskSsn(ssn), last4: ssnDigits(ssn).slice(-4), full: reveal ? ssn : null };
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      context.log.error({ err: error, contactId: row.id }, 'a sealed SSN does not open');
      return { onFile: true, masked: '***-**-****', last4: null, full: null };
    }
  };

  const toRecord = (row: ContactRow, reveal = false): ContactRecord => ({
    number: row.number,
    id: row.id,
    kind: row.kind,
    firstName: row.firstName,
    lastName: row.lastName,
    name: row.name,
    gender: row.gender,
    dob: row.dob,
    email: row.emails[0]?.address ?? '',
    phone: row.phones[0]?.number ?? '',
    addresses: row.addresses,
    createdAt: row.createdAt,
    ssn: ssnOf(row, reveal),
  });

  /** The store's columns for a write; `current` is the row changed (null when creating `id`). */
  const columnsOf = (input: RecordInput, id: string, current: ContactRow | null) => {
    const values: Partial<typeof contact.$inferInsert> = {};
    if (input.kind !== undefined) values.kind = input.kind;
    if (input.firstName !== undefined) values.firstName = input.firstName;
    if (input.lastName !== undefined) values.lastName = input.lastName;
    if (input.name !== undefined) values.name = input.name;
    if (input.gender !== undefined) values.gender = input.gender;
    if (input.dob !== undefined) values.dob = input.dob;
    if (input.addresses !== undefined) values.addresses = input.addresses;
    if (input.email !== undefined) values.emails = withFirst(current?.emails ?? [], 'address', input.email);
    if (input.phone !== undefined) values.phones = withFirst(current?.phones ?? [], 'number', input.phone);
    if (input.ssn !== undefined) {
      const stored = input.ssn ? vault.seal(input.ssn, ssnContext(id)) : null;
      values.ssnSealed = stored?.sealed ?? null;
      values.ssnHash = stored?.hash ?? null;
    }
    return values;
  };

  /** By number; a merged contact's number answers its survivor (contact-merge.ts). */
  const load = async (tx: Queryable, number: number, scope: SQL | undefined) => {
    const [row] = await tx
      .select()
      .from(contact)
      .where(
        and(
          or(
            eq(contact.number, number),
            sql`${contact.id} = (select ${contactMerge.survivorId} from ${contactMerge} where ${contactMerge.duplicateNumber} = ${number})`,
          ),
          scope,
        ),
      )
      .limit(1);
    return row ?? null;
  };

  const insert = async (tx: Queryable, input: RecordInput & { name: string }, number: number, by: string) => {
    const id = `CON-${number}`;
    const [row] = await tx
      .insert(contact)
      .values({
        id,
        number,
        kind: 'person',
        name: input.name,
        ...columnsOf(input, id, null),
        createdBy: by,
      })
      .returning();
    return row!;
  };

  return {
    async list(tx, caller, query) {
      const conditions: (SQL | undefined)[] = [await scopeOf(caller)];
      if (query.name) conditions.push(sql`${contact.name} ilike ${likeText(query.name)}`);
      if (query.email) conditions.push(listContains(contact.emails, 'address', query.email));
      if (query.phone) conditions.push(listContains(contact.phones, 'number', query.phone));
      if (query.kind) conditions.push(eq(contact.kind, query.kind));
      if (query.zip) conditions.push(sql`${contact.addresses} @> ${JSON.stringify([{ zip: query.zip }])}::jsonb`);
      const where = and(...conditions);
      const order =
        query.sort === '-name'
          ? [desc(sql`lower(${contact.name})`), desc(contact.number)]
          : query.sort === 'id'
            ? [asc(contact.number)]
            : query.sort === '-id'
              ? [desc(contact.number)]
              : [asc(sql`lower(${contact.name})`), asc(contact.number)];
      const [total] = await tx.select({ n: count() }).from(contact).where(where);
      const rows = await tx
        .select()
        .from(contact)
        .where(where)
        .orderBy(...order)
        .limit(query.limit)
        .offset(query.offset);
      return { total: total?.n ?? 0, rows: rows.map((row) => toRecord(row)) };
    },

    async get(tx, caller, number, options = {}) {
      const row = await load(tx, number, await scopeOf(caller));
      if (!row) return null;
      const record = toRecord(row, options.revealSsn !== undefined);
      if (record.ssn.full) {
        await writeAudit(tx, { action: 'read-ssn', type: 'contact', id: row.id, username: options.revealSsn! });
      }
      return record;
    },

    async create(tx, input, username) {
      const row = await insert(tx, input, await nextContactNumber(tx), username);
      await writeAudit(tx, { action: 'create', type: 'contact', id: row.id, username });
      return toRecord(row);
    },

    async update(tx, caller, number, input, username) {
      const before = await load(tx, number, await scopeOf(caller));
      if (!before) return null;
      const values = columnsOf(input, before.id, before);
      if (Object.keys(values).length === 0) return { before: toRecord(before), after: toRecord(before) };
      const [after] = await tx
        .update(contact)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(contact.id, before.id))
        .returning();
      await writeAudit(tx, { action: 'update', type: 'contact', id: before.id, username });
      return { before: toRecord(before), after: toRecord(after!) };
    },

    async ssnHolders(tx, ssn) {
      const rows = await tx
        .select({ number: contact.number })
        .from(contact)
        .where(inArray(contact.ssnHash, vault.hashes(ssn)))
        .orderBy(asc(contact.number));
      return rows.map((r) => r.number);
    },

    async notes(tx, number) {
      const rows = await tx
        .select({
          id: contactNote.id,
          text: contactNote.text,
          createdBy: contactNote.createdBy,
          createdAt: contactNote.createdAt,
        })
        .from(contactNote)
        .innerJoin(contact, eq(contact.id, contactNote.contactId))
        .where(eq(contact.number, number))
        .orderBy(desc(contactNote.id));
      return rows;
    },

    async relations(tx, number) {
      const [self] = await tx.select({ id: contact.id }).from(contact).where(eq(contact.number, number));
      if (!self) return [];
      const rows = await tx
        .select()
        .from(contactRelation)
        .where(or(eq(contactRelation.contactId, self.id), eq(contactRelation.relatedContactId, self.id)))
        .orderBy(asc(contactRelation.id));
      const ids = [...new Set(rows.flatMap((r) => [r.contactId, r.relatedContactId]))];
      const ends = ids.length
        ? await tx
            .select({ id: contact.id, number: contact.number, name: contact.name })
            .from(contact)
            .where(inArray(contact.id, ids))
        : [];
      const byId = new Map(ends.map((e) => [e.id, e]));
      return rows.map((r) => ({
        id: r.id,
        relation: r.relation,
        contactNumber: byId.get(r.contactId)!.number,
        contactName: byId.get(r.contactId)!.name,
        relatedNumber: byId.get(r.relatedContactId)!.number,
        relatedName: byId.get(r.relatedContactId)!.name,
      }));
    },

    async addressByZip(tx, zip) {
      const [row] = await tx.select().from(zipCode).where(eq(zipCode.zip, zip)).limit(1);
      return row ?? null;
    },

    async suggestEmails(tx, caller, text, limit) {
      const pattern = likeText(text);
      const rows = await tx
        .select({ email: sql<string>`${contact.emails}->0->>'address'`, name: contact.name })
        .from(contact)
        .where(
          and(
            sql`jsonb_array_length(${contact.emails}) > 0`,
            or(sql`${contact.name} ilike ${pattern}`, sql`${contact.emails}->0->>'address' ilike ${pattern}`),
            await scopeOf(caller),
          ),
        )
        .orderBy(asc(contact.name))
        .limit(limit);
      return rows;
    },

    async adopt(tx, adopted) {
      const [taken] = await tx.select({ id: contact.id }).from(contact).where(eq(contact.number, adopted.number));
      const number = taken ? await nextContactNumber(tx) : adopted.number;
      const row = await insert(tx, adopted, number, 'system');
      if (adopted.createdAt)
        await tx.update(contact).set({ createdAt: adopted.createdAt }).where(eq(contact.id, row.id));
      if (adopted.notes.length > 0) {
        await tx.insert(contactNote).values(adopted.notes.map((note) => ({ contactId: row.id, ...note })));
      }
      // New contacts' numbers stay above every kept one.
      await tx.execute(
        sql`select setval('contacts.contact_number', greatest((select max(number) from contacts.contact), (select last_value from contacts.contact_number)))`,
      );
      await writeAudit(tx, { action: 'adopt', type: 'contact', id: row.id, username: 'system' });
      return number;
    },

    async adoptRelation(tx, number, relatedNumber, relation) {
      const ends = await tx
        .select({ id: contact.id, number: contact.number })
        .from(contact)
        .where(inArray(contact.number, [number, relatedNumber]));
      const idOf = (n: number) => ends.find((e) => e.number === n)?.id;
      const from = idOf(number);
      const to = idOf(relatedNumber);
      if (from && to) await tx.insert(contactRelation).values({ contactId: from, relatedContactId: to, relation });
    },

    async adoptZipCodes(tx, rows) {
      if (rows.length === 0) return;
      await tx.insert(zipCode).values(rows).onConflictDoNothing();
    },
  };
}
