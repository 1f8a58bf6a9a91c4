import type { SQL } from 'drizzle-orm';
import type { Queryable, ServiceRef } from '@atrium/sdk/server';
import { createServiceRef } from '@atrium/sdk/server';

/**
 * The contact store for other modules (claims, quote, policies): they keep contact ids (`CON-…`) and
 * ask this service, never contacts' tables. Every method takes the caller's transaction first.
 */
export interface DirectoryContact {
  id: string;
  kind: 'person' | 'organization';
  name: string;
  roles: string[];
  emails: string[];
  phones: string[];
  /**
   * The contact's addresses, each on one line (`101 Main St, Apt 2, Portland, ME 04101`), in the
   * contact's order — the first is the one to print (a dec page's insured address).
   */
  addresses: string[];
  agencyId: string | null;
  /** Set when `id` was a duplicate merged into another contact: the survivor's id (its details are answered). */
  mergedInto?: string;
}

export interface NewContact {
  kind?: 'person' | 'organization';
  name: string;
  firstName?: string;
  lastName?: string;
  roles?: string[];
  emails?: string[];
  phones?: string[];
  /** The producer and agency whose book it is in. */
  book?: { agentContactId?: string | null; agencyContactId?: string | null };
  createdBy: string;
}

/** One quoting permission of a producer: `action` on `product` (its label, e.g. `Homeowners`) in `state`. */
export interface QuotingPermission {
  product: string;
  state: string;
  action: 'quote' | 'submit' | 'bind';
}

export type ContactDirectory = {
  findContacts(tx: Queryable, ids: string[]): Promise<DirectoryContact[]>;
  /** Contacts whose name contains the text (any case), name order. */
  searchContacts(tx: Queryable, query: { search: string; role?: string; limit: number }): Promise<DirectoryContact[]>;
  /** Creates a contact (in the caller's transaction); answers its id. */
  createContact(tx: Queryable, contact: NewContact): Promise<string>;
  /** Adds a role to a contact (no-op when it has it). */
  addRole(tx: Queryable, id: string, role: string): Promise<void>;
  /** The contact's quoting permissions (product × state × action), product then state order; [] when none. */
  quotingPermissions(tx: Queryable, contactId: string): Promise<QuotingPermission[]>;
  /**
   * The same permissions as a scalar subquery, for the caller to read in a statement of its own (one
   * round trip less, e.g. with the quote it locks, in `tx`); `quotingPermissionsFrom` reads the value.
   */
  quotingPermissionsSql(tx: Queryable, contactId: string): SQL;
  quotingPermissionsFrom(tx: Queryable, value: unknown): QuotingPermission[];
};

export const CONTACT_DIRECTORY: ServiceRef<ContactDirectory> = createServiceRef<ContactDirectory>('contacts.directory');

/** A claim on which a contact is a party, as the contact page lists it. */
export interface ContactClaim {
  claimId: number;
  number: string;
  status: string;
  role: string;
  dateOfLoss: string | null;
  /** Where the claim opens in the app (the claims module's own route). */
  path: string;
}

/**
 * The extension point the claims module provides (contacts never reads claims' tables): the claims
 * where a contact is a party (a party's `contact_id` is the contact's `number`) that the caller (in
 * their effective role) may read. Optional — without
 * the claims module installed a contact lists no claims.
 */
export type ContactClaims = {
  claimsOfContact(
    tx: Queryable,
    contact: { id: string; number: number; name: string },
    caller: { principal: unknown },
  ): Promise<ContactClaim[]>;
};

export const CONTACT_CLAIMS: ServiceRef<ContactClaims> = createServiceRef<ContactClaims>('claims.contact-claims');
