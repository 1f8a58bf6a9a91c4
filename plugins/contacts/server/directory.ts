import { asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { ContactDirectory, DirectoryContact, QuotingPermission } from '../shared/contact-directory.js';
import { likeText } from './contact-routes.js';
import { type ContactAddress, contact, contactMerge } from './tables.js';

/** One address on one line: the street lines, then the city and `STATE ZIP`; empty parts left out. */
export function addressLine(address: ContactAddress): string {
  const place = [address.state, address.zip].filter(Boolean).join(' ');
  return [address.line1, address.line2, address.city, place]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
}

const toDirectory = (row: typeof contact.$inferSelect): DirectoryContact => ({
  id: row.id,
  kind: row.kind === 'organization' ? 'organization' : 'person',
  name: row.name,
  roles: row.roles,
  emails: row.emails.map((e) => e.address),
  phones: row.phones.map((p) => p.number),
  addresses: row.addresses.map(addressLine).filter(Boolean),
  agencyId: row.agencyId,
});

/** The contacts.directory service (shared/contact-directory.ts) over the store's own tables. */
export function createContactDirectory(): ContactDirectory {
  return {
    async findContacts(tx, ids) {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0) return [];
      const found = (await tx.select().from(contact).where(inArray(contact.id, wanted))).map(toDirectory);
      // Ids of merged duplicates (contact-merge.ts) answer the survivor's details under the id asked for.
      const missing = wanted.filter((id) => !found.some((c) => c.id === id));
      if (missing.length === 0) return found;
      const merged = await tx
        .select({ duplicateId: contactMerge.duplicateId, survivor: contact })
        .from(contactMerge)
        .innerJoin(contact, eq(contact.id, contactMerge.survivorId))
        .where(inArray(contactMerge.duplicateId, missing));
      return [
        ...found,
        ...merged.map((m) => ({ ...toDirectory(m.survivor), id: m.duplicateId, mergedInto: m.survivor.id })),
      ];
    },
    async searchContacts(tx, { search, role, limit }) {
      const rows = await tx
        .select()
        .from(contact)
        .where(
          role
            ? sql`${ilike(contact.name, likeText(search))} and ${contact.roles} @> ${JSON.stringify([role])}::jsonb`
            : ilike(contact.name, likeText(search)),
        )
        .orderBy(asc(sql`lower(${contact.name})`), asc(contact.id))
        .limit(limit);
      return rows.map(toDirectory);
    },
    async createContact(tx, input) {
      // One statement: the number from the sequence, the contact, and its book when it has one (a
      // quote's new insured is made on every quote; three round trips were a tenth of creating it).
      const book = input.book && (input.book.agentContactId || input.book.agencyContactId) ? input.book : null;
      const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
      const result = await tx.execute(sql`with n as (select nextval('contacts.contact_number')::int as n),
        created as (
          insert into contacts.contact (id, number, kind, name, first_name, last_name, roles, emails, phones, created_by)
          select 'CON-' || n.n, n.n, ${input.kind ?? 'person'}, ${input.name}, ${input.firstName ?? ''},
            ${input.lastName ?? ''}, ${json(input.roles ?? [])}, ${json((input.emails ?? []).map((address) => ({ address })))},
            ${json((input.phones ?? []).map((number) => ({ number })))}, ${input.createdBy}
          from n
          returning id
        )${
          book
            ? sql`, book as (
          insert into contacts.contact_book (contact_id, agent_contact_id, agency_contact_id)
          select id, ${book.agentContactId ?? null}, ${book.agencyContactId ?? null} from created
        )`
            : sql``
        }
        select id from created`);
      return (result.rows as { id: string }[])[0]!.id;
    },
    async addRole(tx, id, role) {
      await tx
        .update(contact)
        .set({ roles: sql`${contact.roles} || ${JSON.stringify([role])}::jsonb`, updatedAt: new Date() })
        .where(sql`${eq(contact.id, id)} and not ${contact.roles} @> ${JSON.stringify([role])}::jsonb`);
    },
    async quotingPermissions(tx, contactId) {
      const [row] = (await tx.execute(sql`select ${permissionsSql(contactId)} as grants`)).rows as {
        grants: unknown;
      }[];
      return permissionsFrom(row?.grants);
    },
    quotingPermissionsSql: (_tx, contactId) => permissionsSql(contactId),
    quotingPermissionsFrom: (_tx, value) => permissionsFrom(value),
  };
}

/** A contact's quoting permissions as one JSON array (product, state, action order): a scalar subquery. */
const permissionsSql = (contactId: string) =>
  sql`(select coalesce(json_agg(json_build_object('product', q.product, 'state', q.state, 'action', q.action)
      order by q.product, q.state, q.action), '[]'::json)
    from contacts.quoting_permission q where q.contact_id = ${contactId})`;

/** The array read back (the three actions quoting knows; others are ignored). */
const permissionsFrom = (value: unknown): QuotingPermission[] =>
  ((typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as QuotingPermission[]).filter((r) =>
    ['quote', 'submit', 'bind'].includes(r.action),
  );
