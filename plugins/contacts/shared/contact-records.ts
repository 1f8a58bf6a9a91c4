import type { Queryable, ServiceRef } from '@atrium/sdk/server';
import { createServiceRef } from '@atrium/sdk/server';

/**
 * The store's contacts as the claims integration answers them (`/api/claims/integrations/contacts/…`,
 * docs/contacts.md "Claims' contacts"): by number (`CON-1001` is 1001), with one e-mail and one
 * phone (the first of the store's lists), the gender by name, and the SSN masked unless revealed.
 * Claims keeps its paths, payloads, messages and permission checks and reads and writes through
 * this service; it never touches contacts' tables. Reads apply the caller's contacts record scope
 * (agents and agencies: their own book). Every method takes the caller's transaction first.
 */
export interface RecordAddress {
  type?: string;
  line1?: string;
  line2?: string;
  city?: string;
  county?: string;
  state?: string;
  zip?: string;
}

export interface ContactRecord {
  number: number;
  /** The store id (`CON-…`). */
  id: string;
  kind: string;
  firstName: string;
  lastName: string;
  name: string;
  /** A gender name (claims' gender lookup names), or null. */
  gender: string | null;
  dob: string | null;
  email: string;
  phone: string;
  addresses: RecordAddress[];
  createdAt: Date;
  /** `masked` is `***-**-1234`; `full` only when asked to reveal (and audited by the store). */
  ssn: { onFile: boolean; masked: string | null; last4: string | null; full: string | null };
}

/** What a write may change; undefined leaves a field, `ssn` null or '' clears it. */
export interface RecordInput {
  kind?: string;
  firstName?: string;
  lastName?: string;
  name?: string;
  gender?: string | null;
  dob?: string | null;
  email?: string;
  phone?: string;
  addresses?: RecordAddress[];
  /** Checked by the caller (well formed, duplicates): the store seals it bound to the row. */
  ssn?: string | null;
}

export interface RecordQuery {
  name?: string;
  email?: string;
  phone?: string;
  kind?: string;
  zip?: string;
  sort: 'name' | '-name' | 'id' | '-id';
  limit: number;
  offset: number;
}

export interface RecordNote {
  id: number;
  text: string;
  createdBy: string;
  createdAt: Date;
}

export interface RecordRelation {
  id: number;
  relation: string;
  contactNumber: number;
  contactName: string;
  relatedNumber: number;
  relatedName: string;
}

/** A contact handed over from claims' own tables (docs/contacts.md, "Moving claims' contacts in"). */
export interface AdoptedContact extends RecordInput {
  name: string;
  /** The number it had in claims; kept when no store contact has it. */
  number: number;
  createdAt?: Date;
  notes: { text: string; createdBy: string; createdAt: Date }[];
}

/** `caller` is the request (its principal): reads are scoped to what the caller may read. */
export type Caller = { principal: unknown };

export type ContactRecords = {
  list(tx: Queryable, caller: Caller, query: RecordQuery): Promise<{ total: number; rows: ContactRecord[] }>;
  /** One contact the caller may read; `revealSsn` (the caller's user name) answers the SSN in full, audited. */
  get(tx: Queryable, caller: Caller, number: number, options?: { revealSsn?: string }): Promise<ContactRecord | null>;
  create(tx: Queryable, input: RecordInput & { name: string }, username: string): Promise<ContactRecord>;
  /** Null when the caller may not read the contact (or it does not exist). */
  update(
    tx: Queryable,
    caller: Caller,
    number: number,
    input: RecordInput,
    username: string,
  ): Promise<{ before: ContactRecord; after: ContactRecord } | null>;
  /** The numbers of the contacts holding this SSN (by keyed hash; every contact, whatever the scope). */
  ssnHolders(tx: Queryable, ssn: string): Promise<number[]>;
  notes(tx: Queryable, number: number): Promise<RecordNote[]>;
  /** Relations where the contact is either end, with the names of both ends. */
  relations(tx: Queryable, number: number): Promise<RecordRelation[]>;
  addressByZip(
    tx: Queryable,
    zip: string,
  ): Promise<{ zip: string; city: string; county: string; state: string } | null>;
  /** Contacts with an e-mail whose name or e-mail contains the text (any case), within the caller's scope. */
  suggestEmails(tx: Queryable, caller: Caller, text: string, limit: number): Promise<{ email: string; name: string }[]>;
  /** Hands over one contact from claims' own tables: answers its store number. */
  adopt(tx: Queryable, contact: AdoptedContact): Promise<number>;
  adoptRelation(tx: Queryable, number: number, relatedNumber: number, relation: string): Promise<void>;
  /** Adds ZIP codes the store does not know yet. */
  adoptZipCodes(tx: Queryable, rows: { zip: string; city: string; county: string; state: string }[]): Promise<void>;
};

export const CONTACT_RECORDS: ServiceRef<ContactRecords> = createServiceRef<ContactRecords>('contacts.records');
