import { asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { ContactDirectory, DirectoryContact, QuotingPermission } from '../shared/contact-directory.js';
import { likeText } from './contact-routes.js';
import { nextContactNumber } from './records.js';
import { type ContactAddress, contact, contactBook, contactMerge, quotingPermission } from './tables.js';

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
      const number = await nextContactNumber(tx);
      const id = `CON-${number}`;
      await tx.insert(contact).values({
        id,
        number,
        kind: input.kind ?? 'person',
        name: input.name,
        firstName: input.firstName ?? '',
        lastName: input.lastName ?? '',
        roles: input.roles ?? [],
        emails: (input.emails ?? []).map((address) => ({ address })),
        phones: (input.phones ?? []).map((number) => ({ number })),
        createdBy: input.createdBy,
      });
      if (input.book && (input.book.agentContactId || input.book.agencyContactId)) {
        await tx.insert(contactBook).values({
          contactId: id,
          agentContactId: input.book.agentContactId ?? null,
          agencyContactId: input.book.agencyContactId ?? null,
        });
      }
      return id;
    },
    async addRole(tx, id, role) {
      await tx
        .update(contact)
        .set({ roles: sql`${contact.roles} || ${JSON.stringify([role])}::jsonb`, updatedAt: new Date() })
        .where(sql`${eq(contact.id, id)} and not ${contact.roles} @> ${JSON.stringify([role])}::jsonb`);
    },
    async quotingPermissions(tx, contactId) {
      const rows = await tx
        .select({
          product: quotingPermission.product,
          state: quotingPermission.state,
          action: quotingPermission.action,
        })
        .from(quotingPermission)
        .where(eq(quotingPermission.contactId, contactId))
        .orderBy(asc(quotingPermission.product), asc(quotingPermission.state), asc(quotingPermission.action));
      return rows.filter((r): r is QuotingPermission => ['quote', 'submit', 'bind'].includes(r.action));
    },
  };
}
