import { and, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  resourceDefinitionOf,
  resourceDocument,
  serializeDocument,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { ssnContext, writeAudit, type ContactRow, type ContactStore } from './contact-store.js';
import { contactsPermissions } from './permissions.js';
import {
  auditEntry,
  contact,
  contactBook,
  contactMerge,
  contactNote,
  contactRelation,
  quotingPermission,
  type ContactAddress,
} from './tables.js';

/**
 * Duplicates and merging (docs/contacts.md, "Duplicates and merging"):
 *
 * GET  contacts/contacts/{id}/duplicates/  contacts that may be the same one: the same SSN, or the
 *                                          same name with a shared e-mail, phone or date of birth
 * POST contacts/contacts/{id}/merge/       merges `duplicate_id` into this contact (contacts:contact
 *                                          merge), in one transaction
 * GET  contacts/merges/{id}/               where a merged contact went (its survivor)
 *
 * A merge keeps the survivor's own details and adds what only the duplicate had (roles, addresses,
 * phones, e-mails; website, date of birth, gender and SSN where the survivor has none); moves the
 * duplicate's notes, relations, books and quoting permissions; removes the duplicate; and records the
 * way from its id and number to the survivor (contact_merge), which the store's services follow.
 * Refused (409): a duplicate who signs in (identity users name their contact), a producer (quotes
 * and policies name agents and agencies), a person into an organisation or the other way round.
 */
const tags = ['contacts'];
const security = [{ bearer: [] as string[] }];
const idParams = z.strictObject({ id: z.string().max(50) });
const mergeBody = resourceDocument('contact-merge', {
  duplicate_id: z
    .string({ error: 'Choose the duplicate to merge.' })
    .trim()
    .min(1, 'Choose the duplicate to merge.')
    .max(50),
});

const PRODUCER_ROLES = ['agent', 'agency'];

const digits = (phone: string) => phone.replace(/\D/g, '');
const addressKey = (a: ContactAddress) =>
  [a.line1, a.line2, a.city, a.state, a.zip].map((part) => (part ?? '').trim().toLowerCase()).join('|');

/** The survivor's list with the duplicate's entries it lacks appended (compared by `key`). */
function union<T>(kept: T[], added: T[], key: (item: T) => string): T[] {
  const seen = new Set(kept.map(key));
  return [...kept, ...added.filter((item) => !seen.has(key(item)) && seen.add(key(item)))];
}

/** Follows merged ids to their survivor (rows always name the last survivor, see the table). */
export async function survivorOf(tx: Queryable, id: string): Promise<string | null> {
  const [row] = await tx
    .select({ survivorId: contactMerge.survivorId })
    .from(contactMerge)
    .where(eq(contactMerge.duplicateId, id));
  return row?.survivorId ?? null;
}

export function contactMergeRoutes(router: AtriumRouter, context: ServerPluginContext, store: ContactStore): void {
  const db = context.db;
  const definition = resourceDefinitionOf(store.contacts, context);

  /** A contact the caller may read (404 as for a missing one otherwise). */
  const readable = async (request: FastifyRequest, id: string, pointer?: string): Promise<ContactRow> => {
    const [row] = await db
      .select()
      .from(contact)
      .where(and(eq(contact.id, id), await store.readScope(request)))
      .limit(1);
    if (!row) {
      if (pointer) throw new ApiError(400, `Contact ${id} not found.`, { source: { pointer } });
      throw new ApiError(404, `Contact ${id} not found.`);
    }
    return row;
  };

  router.get(
    '/contacts/contacts/:id/duplicates/',
    {
      config: { jsonapi: true, access: contactsPermissions.can('contact', 'merge') },
      schema: {
        summary:
          'Contacts that may be this one: the same SSN, or the same name with a shared e-mail, phone or date of birth (within the caller’s book).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const row = await readable(request, request.params.id);
      const emails = row.emails.map((e) => e.address.trim().toLowerCase()).filter(Boolean);
      const phones = row.phones.map((p) => digits(p.number)).filter((p) => p.length >= 7);
      const shared: SQL[] = [];
      if (emails.length)
        shared.push(
          sql`exists (select 1 from jsonb_array_elements(${contact.emails}) e where lower(trim(e->>'address')) in (${sql.join(
            emails.map((e) => sql`${e}`),
            sql`, `,
          )}))`,
        );
      if (phones.length)
        shared.push(
          sql`exists (select 1 from jsonb_array_elements(${contact.phones}) p where regexp_replace(p->>'number', '\\D', '', 'g') in (${sql.join(
            phones.map((p) => sql`${p}`),
            sql`, `,
          )}))`,
        );
      if (row.dob) shared.push(eq(contact.dob, row.dob));
      const sameName = and(eq(sql`lower(trim(${contact.name}))`, row.name.trim().toLowerCase()), or(...shared));
      const candidates = await db
        .select()
        .from(contact)
        .where(
          and(
            ne(contact.id, row.id),
            eq(contact.kind, row.kind),
            row.ssnHash
              ? or(eq(contact.ssnHash, row.ssnHash), shared.length ? sameName : undefined)
              : shared.length
                ? sameName
                : sql`false`,
            await store.readScope(request),
          ),
        )
        .orderBy(contact.number)
        .limit(20);
      return serializeDocument(definition, candidates);
    },
  );

  router.post(
    '/contacts/contacts/:id/merge/',
    {
      config: { jsonapi: true, access: contactsPermissions.can('contact', 'merge') },
      schema: {
        summary:
          'Merges the contact `duplicate_id` into this one: details it lacks, notes, relations, books and quoting permissions move here; the duplicate is removed and its id leads here. 409 for a duplicate who signs in or is a producer.',
        tags,
        security,
        params: idParams,
        body: mergeBody,
      },
    },
    async (request) => {
      const duplicateId = request.body.data.attributes?.duplicate_id;
      if (!duplicateId) throw attributeError('duplicate_id', 'Choose the duplicate to merge.');
      const survivor = await readable(request, request.params.id);
      const duplicate = await readable(request, duplicateId, '/data/attributes/duplicate_id');
      if (survivor.id === duplicate.id) throw attributeError('duplicate_id', 'A contact cannot be merged into itself.');
      if (survivor.kind !== duplicate.kind)
        throw new ApiError(409, 'A person and an organization cannot be merged.', { code: 'merge_kind' });
      if (duplicate.username)
        throw new ApiError(
          409,
          `${duplicate.name} signs in as ${duplicate.username}; merge the other way round, into that contact.`,
          { code: 'merge_user' },
        );
      if (duplicate.roles.some((r) => PRODUCER_ROLES.includes(r)))
        throw new ApiError(
          409,
          `${duplicate.name} is a producer named on quotes and policies; merge the other way round, into that contact.`,
          { code: 'merge_producer' },
        );
      const username = request.principal?.username ?? 'system';
      const merged = await db.transaction(async (tx) => {
        const changes: Partial<typeof contact.$inferInsert> = {
          roles: union(survivor.roles, duplicate.roles, (r) => r),
          addresses: union(survivor.addresses, duplicate.addresses, addressKey),
          phones: union(survivor.phones, duplicate.phones, (p) => digits(p.number)),
          emails: union(survivor.emails, duplicate.emails, (e) => e.address.trim().toLowerCase()),
          website: survivor.website || duplicate.website,
          dob: survivor.dob ?? duplicate.dob,
          gender: survivor.gender ?? duplicate.gender,
          agencyId: survivor.agencyId ?? (duplicate.agencyId === survivor.id ? null : duplicate.agencyId),
          updatedAt: new Date(),
        };
        if (!survivor.ssnSealed && duplicate.ssnSealed) {
          // A sealed SSN is bound to its row: open it as the duplicate's and seal it as the survivor's.
          const resealed = store.vault.seal(
            store.vault.open(duplicate.ssnSealed, ssnContext(duplicate.id)),
            ssnContext(survivor.id),
          );
          changes.ssnSealed = resealed.sealed;
          changes.ssnHash = resealed.hash;
        }
        // The duplicate goes first, so the survivor may take its SSN hash and user name columns.
        await moveChildren(tx, duplicate.id, survivor.id);
        await tx.delete(contact).where(eq(contact.id, duplicate.id));
        const [row] = await tx.update(contact).set(changes).where(eq(contact.id, survivor.id)).returning();
        // Earlier merges into the duplicate now lead to the survivor; then the duplicate itself.
        await tx.update(contactMerge).set({ survivorId: survivor.id }).where(eq(contactMerge.survivorId, duplicate.id));
        await tx.insert(contactMerge).values({
          duplicateId: duplicate.id,
          duplicateNumber: duplicate.number,
          duplicateName: duplicate.name,
          survivorId: survivor.id,
          mergedBy: username,
        });
        await writeAudit(tx, { action: 'merged', type: 'contact', id: duplicate.id, username });
        await writeAudit(tx, { action: 'merge', type: 'contact', id: survivor.id, username });
        return row!;
      });
      return serializeDocument(definition, merged, {
        meta: { merged: { id: duplicate.id, name: duplicate.name } },
      });
    },
  );

  router.get(
    '/contacts/merges/:id/',
    {
      config: { access: contactsPermissions.can('contact', 'read') },
      schema: {
        summary:
          'Where a merged contact went: its survivor (404 when the id was never merged or the survivor is not yours to read).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const [row] = await db.select().from(contactMerge).where(eq(contactMerge.duplicateId, request.params.id));
      if (!row) throw new ApiError(404, `Contact ${request.params.id} was not merged.`);
      const survivor = await readable(request, row.survivorId).catch(() => null);
      if (!survivor) throw new ApiError(404, `Contact ${request.params.id} was not merged.`);
      return {
        duplicate_id: row.duplicateId,
        duplicate_name: row.duplicateName,
        survivor_id: survivor.id,
        survivor_name: survivor.name,
        merged_by: row.mergedBy,
        merged_at: row.mergedAt,
      };
    },
  );

  router.get(
    '/contacts/contacts/:id/activity/',
    {
      config: { access: contactsPermissions.can('contact', 'read') },
      schema: {
        summary:
          "What happened to a contact, newest first: changes, merges, SSN reveals, and its notes' and relations' changes (who and when).",
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
      },
    },
    async (request) => {
      const row = await readable(request, request.params.id);
      const mergedIds = db
        .select({ id: contactMerge.duplicateId })
        .from(contactMerge)
        .where(eq(contactMerge.survivorId, row.id));
      const noteIds = db
        .select({ id: sql<string>`${contactNote.id}::text` })
        .from(contactNote)
        .where(eq(contactNote.contactId, row.id));
      const relationIds = db
        .select({ id: sql<string>`${contactRelation.id}::text` })
        .from(contactRelation)
        .where(or(eq(contactRelation.contactId, row.id), eq(contactRelation.relatedContactId, row.id)));
      const entries = await db
        .select()
        .from(auditEntry)
        .where(
          or(
            and(
              eq(auditEntry.entityType, 'contact'),
              or(eq(auditEntry.entityId, row.id), inArray(auditEntry.entityId, mergedIds)),
            ),
            and(eq(auditEntry.entityType, 'contact-note'), inArray(auditEntry.entityId, noteIds)),
            and(eq(auditEntry.entityType, 'contact-relation'), inArray(auditEntry.entityId, relationIds)),
          ),
        )
        .orderBy(sql`${auditEntry.at} desc, ${auditEntry.id} desc`)
        .limit(request.query.limit);
      return {
        data: entries.map((e) => ({
          action: e.action,
          entity_type: e.entityType,
          entity_id: e.entityId,
          username: e.username,
          at: e.at,
        })),
      };
    },
  );
}

/** Moves what hangs off the duplicate to the survivor, leaving out what the survivor already has. */
async function moveChildren(tx: Queryable, from: string, to: string): Promise<void> {
  await tx.update(contactNote).set({ contactId: to }).where(eq(contactNote.contactId, from));
  // Books: the survivor's producers gain the duplicate's books it is not already in.
  await tx.execute(sql`
    update ${contactBook} b set contact_id = ${to}
    where b.contact_id = ${from}
      and not exists (select 1 from ${contactBook} s where s.contact_id = ${to}
        and s.agent_contact_id is not distinct from b.agent_contact_id
        and s.agency_contact_id is not distinct from b.agency_contact_id)`);
  // Relations: both ends; a relation between the two, or one the survivor already has, is dropped.
  await tx
    .delete(contactRelation)
    .where(
      or(
        and(eq(contactRelation.contactId, from), eq(contactRelation.relatedContactId, to)),
        and(eq(contactRelation.contactId, to), eq(contactRelation.relatedContactId, from)),
      ),
    );
  await tx.execute(sql`
    update ${contactRelation} r set contact_id = ${to}
    where r.contact_id = ${from} and not exists (select 1 from ${contactRelation} s
      where s.contact_id = ${to} and s.related_contact_id = r.related_contact_id and s.relation = r.relation)`);
  await tx.execute(sql`
    update ${contactRelation} r set related_contact_id = ${to}
    where r.related_contact_id = ${from} and not exists (select 1 from ${contactRelation} s
      where s.related_contact_id = ${to} and s.contact_id = r.contact_id and s.relation = r.relation)`);
  await tx.execute(sql`
    update ${quotingPermission} q set contact_id = ${to}
    where q.contact_id = ${from} and not exists (select 1 from ${quotingPermission} s
      where s.contact_id = ${to} and s.product = q.product and s.state = q.state and s.action = q.action)`);
  // People who worked for the duplicate (an organisation) now work for the survivor.
  await tx.update(contact).set({ agencyId: to }).where(eq(contact.agencyId, from));
}
