import { asc, eq, inArray, sql } from 'drizzle-orm';
import { formatSsn, SecretOpenError, ssnVault, type ServerPluginContext } from '@atrium/sdk/server';
import type { ContactRecords } from '@atrium/plugin-contacts/records';
import { contact, contactNote, contactRelation, lookup, zipCode } from '../core/tables.js';

/**
 * Hands claims' own contact tables over to the contact store (docs/contacts.md, "Moving claims'
 * contacts in"): at start, every row still in claims.contact moves through the contacts module's
 * service with its notes, relations and SSN (opened under claims' seal, resealed by the store), and
 * so do the ZIP codes; parties then name the store number the contact got (its claims id when no
 * store contact had that number). All in one transaction under a table lock, so two servers starting
 * together move each row once; the claims rows are deleted in it. Nothing to do (one select) once
 * the tables are empty — a later claims migration drops them.
 */
export async function handOverContactsOnce(context: ServerPluginContext, records: ContactRecords): Promise<number> {
  const vault = ssnVault(context.secrets);
  return context.db.transaction(async (tx) => {
    const [pending] = await tx.select({ id: contact.id }).from(contact).limit(1);
    const [zipPending] = await tx.select({ zip: zipCode.zip }).from(zipCode).limit(1);
    if (!pending && !zipPending) return 0;
    await tx.execute(sql`lock table claims.contact, claims.zip_code in exclusive mode`);
    const zips = await tx.select().from(zipCode);
    await records.adoptZipCodes(tx, zips);
    const rows = await tx.select().from(contact).orderBy(asc(contact.id));
    const notes = await tx.select().from(contactNote).orderBy(asc(contactNote.id));
    const relations = await tx.select().from(contactRelation).orderBy(asc(contactRelation.id));
    const genders = await tx.select({ id: lookup.id, name: lookup.name }).from(lookup).where(eq(lookup.kind, 'gender'));
    const numbers = new Map<number, number>();
    for (const row of rows) {
      let ssn: string | null = null;
      if (row.ssnSealed) {
        try {
          ssn = vault.open(row.ssnSealed, `claims.contact:${row.id}:ssn`);
        } catch (error) {
          if (!(error instanceof SecretOpenError)) throw error;
          context.log.error({ err: error, contactId: row.id }, 'a sealed SSN does not open; moved without it');
        }
      } else if (row.legacySsn) ssn = formatSsn(row.legacySsn);
      const number = await records.adopt(tx, {
        number: row.id,
        kind: row.kind,
        firstName: row.firstName,
        lastName: row.lastName,
        name: row.name,
        gender: genders.find((g) => g.id === row.genderId)?.name ?? null,
        dob: row.dob,
        email: row.email,
        phone: row.phone,
        addresses: row.addresses,
        ssn,
        createdAt: row.createdAt,
        notes: notes
          .filter((n) => n.contactId === row.id)
          .map((n) => ({ text: n.text, createdBy: n.createdBy, createdAt: n.createdAt })),
      });
      numbers.set(row.id, number);
    }
    for (const relation of relations) {
      await records.adoptRelation(
        tx,
        numbers.get(relation.contactId)!,
        numbers.get(relation.relatedContactId)!,
        relation.relation,
      );
    }
    // One statement, so a number given to one contact is never mistaken for another's old id.
    const moved = [...numbers.entries()].filter(([from, to]) => from !== to);
    if (moved.length > 0) {
      const pairs = sql.join(
        moved.map(([from, to]) => sql`(${from}::integer, ${to}::integer)`),
        sql`, `,
      );
      await tx.execute(
        sql`update claims.party set contact_id = m.to_number from (values ${pairs}) as m(from_number, to_number) where claims.party.contact_id = m.from_number`,
      );
    }
    if (rows.length > 0)
      await tx.delete(contact).where(
        inArray(
          contact.id,
          rows.map((r) => r.id),
        ),
      );
    if (zips.length > 0)
      await tx.delete(zipCode).where(
        inArray(
          zipCode.zip,
          zips.map((z) => z.zip),
        ),
      );
    if (rows.length > 0) context.log.info({ contacts: rows.length }, "moved claims' contacts into the contact store");
    return rows.length;
  });
}

/** Starts the handover when the server is ready; failures are logged and tried again at the next start. */
export function handOverContacts(context: ServerPluginContext, records: ContactRecords): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => handOverContactsOnce(context, records))
    .then(
      () => undefined,
      (error: unknown) => context.log.error({ err: error }, "moving claims' contacts into the contact store failed"),
    );
}
