import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The contact store (docs/contacts.md): people and organisations, their relations, notes, the
 * books they are in and the quoting permissions of producers — all in the `contacts` schema. Other
 * modules reach it through the contact directory service (shared/contact-directory.ts), never by
 * these tables.
 */
export const contactsSchema = pgSchema('contacts');

/** Numbers new contact ids: `CON-1001`, `CON-1002` … (demo producers keep their named ids). */
export const contactNumber = contactsSchema.sequence('contact_number', { startWith: 1001 });

export interface ContactAddress {
  type?: string;
  line1?: string;
  line2?: string;
  city?: string;
  county?: string;
  state?: string;
  zip?: string;
}
export interface ContactPhone {
  type?: string;
  number: string;
}
export interface ContactEmail {
  type?: string;
  address: string;
}

export const contact = contactsSchema.table(
  'contact',
  {
    /** `CON-…`: the id identity's users (contact_id, agency_id) and policies' producers name. */
    id: text('id').primaryKey(),
    /**
     * The contact's number: `CON-1001` is 1001 (ids the sequence made), named ids have one from the
     * sequence too. The claims integration paths (/api/claims/integrations/contacts/{number}/) and
     * claims' parties (`contact_id`) name contacts by it (docs/contacts.md, "Claims' contacts").
     */
    number: integer('number')
      .notNull()
      .default(sql`nextval('contacts.contact_number')`),
    kind: text('kind').notNull().default('person'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    name: text('name').notNull(),
    /** insured, agent, agency, vendor, claimant, witness, lienholder … */
    roles: jsonb('roles').$type<string[]>().notNull().default([]),
    addresses: jsonb('addresses').$type<ContactAddress[]>().notNull().default([]),
    phones: jsonb('phones').$type<ContactPhone[]>().notNull().default([]),
    emails: jsonb('emails').$type<ContactEmail[]>().notNull().default([]),
    website: text('website').notNull().default(''),
    dob: date('dob'),
    /** The gender as the claims screens name it (Female, Male …; claims' gender lookup names). */
    gender: text('gender'),
    /** The agency (contact id) a person works for: agents of an agency. */
    agencyId: text('agency_id'),
    /** The identity user name this contact signs in as (get_contact_by_cognito_username). */
    username: text('username'),
    /** The SSN's digits sealed by the secrets service, bound to the row (`contacts.contact:<id>:ssn`). */
    ssnSealed: text('ssn_sealed'),
    /** The keyed hash (HMAC-SHA256) of the SSN's digits: duplicate checks compare these. */
    ssnHash: text('ssn_hash'),
    createdBy: text('created_by').notNull().default('system'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('contact_name_idx').on(sql`lower(${table.name})`),
    index('contact_ssn_hash_idx').on(table.ssnHash),
    uniqueIndex('contact_username_key').on(table.username),
    uniqueIndex('contact_number_key').on(table.number),
    index('contact_agency_idx').on(table.agencyId),
  ],
);

/**
 * The books a contact is in: the producer (agent) and agency whose business it is. Agents and
 * agencies read the contacts of their own book (record.agent_contact_id / record.agency_contact_id,
 * compared as a semi-join over these rows).
 */
export const contactBook = contactsSchema.table(
  'contact_book',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    contactId: text('contact_id')
      .notNull()
      .references(() => contact.id, { onDelete: 'cascade' }),
    agentContactId: text('agent_contact_id'),
    agencyContactId: text('agency_contact_id'),
  },
  (table) => [
    index('contact_book_contact_idx').on(table.contactId),
    index('contact_book_agent_idx').on(table.agentContactId),
    index('contact_book_agency_idx').on(table.agencyContactId),
  ],
);

export const contactRelation = contactsSchema.table(
  'contact_relation',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    contactId: text('contact_id')
      .notNull()
      .references(() => contact.id, { onDelete: 'cascade' }),
    relatedContactId: text('related_contact_id')
      .notNull()
      .references(() => contact.id, { onDelete: 'cascade' }),
    /** spouse, employer, agent of, household member … */
    relation: text('relation').notNull(),
  },
  (table) => [index('contact_relation_contact_idx').on(table.contactId)],
);

export const contactNote = contactsSchema.table(
  'contact_note',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    contactId: text('contact_id')
      .notNull()
      .references(() => contact.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdBy: text('created_by').notNull().default('system'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('contact_note_contact_idx').on(table.contactId)],
);

/** Producer × product × state × action (quote, submit, bind): what a contact may do in quoting. */
export const quotingPermission = contactsSchema.table(
  'quoting_permission',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    contactId: text('contact_id')
      .notNull()
      .references(() => contact.id, { onDelete: 'cascade' }),
    product: text('product').notNull(),
    state: text('state').notNull(),
    action: text('action').notNull(),
  },
  (table) => [uniqueIndex('quoting_permission_key').on(table.contactId, table.product, table.state, table.action)],
);

/** ZIP → city, county and state (the claims contact form's address by ZIP). */
export const zipCode = contactsSchema.table('zip_code', {
  zip: text('zip').primaryKey(),
  city: text('city').notNull(),
  county: text('county').notNull().default(''),
  state: text('state').notNull(),
});

/** Writes to the store and every unmasked SSN answer: who, what, when (never the SSN itself). */
export const auditEntry = contactsSchema.table('audit_entry', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  action: text('action').notNull(),
  entityType: text('entity_type').notNull(),
  entityId: text('entity_id').notNull(),
  username: text('username').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Duplicates merged into another contact (contact-merge.ts): the duplicate's row is gone, its
 * notes, relations, books and details live on the survivor, and this row keeps the way from the
 * old id and number to the survivor — other modules still holding them (claims' parties, policies'
 * insureds) are answered with the survivor by the store's services, and the old contact page links
 * to it. A survivor merged later on is followed through: rows always name the last survivor.
 */
export const contactMerge = contactsSchema.table(
  'contact_merge',
  {
    duplicateId: text('duplicate_id').primaryKey(),
    duplicateNumber: integer('duplicate_number').notNull(),
    duplicateName: text('duplicate_name').notNull(),
    survivorId: text('survivor_id')
      .notNull()
      .references(() => contact.id, { onDelete: 'cascade' }),
    mergedBy: text('merged_by').notNull(),
    mergedAt: timestamp('merged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('contact_merge_number_key').on(table.duplicateNumber),
    index('contact_merge_survivor_idx').on(table.survivorId),
  ],
);
