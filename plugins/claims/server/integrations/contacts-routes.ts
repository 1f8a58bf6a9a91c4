import { and, asc, eq, or } from 'drizzle-orm';
import { ApiError, defineResource, serializeDocument, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { registerCollection } from '../core/collection-routes.js';
import { numericId, security, tags } from '../core/http-kit.js';
import { contact, contactNote, contactRelation, lookup, zipCode } from '../core/tables.js';

/**
 * The contacts integration (until the contacts module provides contacts): list with filters,
 * create, read, replace (PUT) and change, notes, relations, address by ZIP, SSN validation and the
 * duplicate-SSN setting, genders and address types. SSNs are never sent back; `has_ssn` says
 * whether one is on file.
 */
const BASE = '/integrations/contacts';
const SSN = /^(?!000|666|9\d\d)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}$/;
/** Duplicate SSNs are refused unless this is turned on; there is no setting screen for it yet. */
export const ALLOW_DUPLICATE_SSN = false;

const normalizeSsn = (ssn: string) => ssn.replace(/-/g, '');

export function contactsRoutes(router: AtriumRouter, db: Database): void {
  const idParams = z.strictObject({ id: z.string().max(20) });

  // Static paths first in meaning (the router prefers static segments over :id anyway).
  router.get(
    `${BASE}/address-by-zip/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: {
        summary: 'City, county and state of a US ZIP code.',
        tags,
        security,
        querystring: z.strictObject({ zip: z.string().regex(/^\d{5}$/, 'Enter a 5-digit ZIP code.') }),
      },
    },
    async (request) => {
      const [row] = await db.select().from(zipCode).where(eq(zipCode.zip, request.query.zip)).limit(1);
      if (!row) throw new ApiError(404, `ZIP code ${request.query.zip} not found.`);
      return {
        jsonapi: { version: '1.1' },
        data: {
          type: 'address',
          id: row.zip,
          attributes: { zip: row.zip, city: row.city, county: row.county, state: row.state },
        },
      };
    },
  );

  router.get(
    `${BASE}/validate-ssn/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: {
        summary: 'Whether an SSN is well formed and whether a contact already has it.',
        tags,
        security,
        querystring: z.strictObject({ ssn: z.string().max(20), contact_id: z.coerce.number().int().min(1).optional() }),
      },
    },
    async (request) => {
      const valid = SSN.test(request.query.ssn);
      const holders = valid
        ? await db
            .select({ id: contact.id })
            .from(contact)
            .where(eq(contact.ssn, normalizeSsn(request.query.ssn)))
        : [];
      const others = holders.filter((h) => h.id !== request.query.contact_id);
      return {
        jsonapi: { version: '1.1' },
        meta: {
          valid,
          duplicate: others.length > 0,
          allowed: valid && (ALLOW_DUPLICATE_SSN || others.length === 0),
          contact_ids: others.map((o) => o.id),
        },
      };
    },
  );

  router.get(
    `${BASE}/allow-duplicate-ssn/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: { summary: 'Whether two contacts may share an SSN.', tags, security },
    },
    async () => ({ jsonapi: { version: '1.1' }, meta: { allow_duplicate_ssn: ALLOW_DUPLICATE_SSN } }),
  );

  for (const [path, kind] of [
    ['genders', 'gender'],
    ['address-types', 'address-type'],
  ] as const) {
    router.get(
      `${BASE}/${path}/`,
      {
        config: { jsonapi: true, access: claimsPermission('contact', 'read') },
        schema: { summary: `The ${path.replace('-', ' ')} contacts may have.`, tags, security },
      },
      async () => {
        const rows = await db
          .select()
          .from(lookup)
          .where(and(eq(lookup.kind, kind), eq(lookup.expired, false)))
          .orderBy(asc(lookup.sortOrder));
        return serializeDocument(
          defineResource<(typeof rows)[number]>({
            type: kind,
            id: (r) => String(r.id),
            attributes: (r) => ({ name: r.name, label: r.label }),
          }),
          rows,
        );
      },
    );
  }

  const noteResource = defineResource<typeof contactNote.$inferSelect>({
    type: 'contact-note',
    id: (r) => String(r.id),
    attributes: (r) => ({ text: r.text, created_by: r.createdBy, created_at: r.createdAt }),
  });
  router.get(
    `${BASE}/:id/notes/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: { summary: "A contact's notes, newest first.", tags, security, params: idParams },
    },
    async (request) => {
      const id = numericId(request.params.id, `Contact ${request.params.id} not found.`);
      const rows = await db
        .select()
        .from(contactNote)
        .where(eq(contactNote.contactId, id))
        .orderBy(asc(contactNote.id));
      return serializeDocument(noteResource, rows.reverse());
    },
  );

  const relationResource = defineResource<typeof contactRelation.$inferSelect>({
    type: 'contact-relation',
    id: (r) => String(r.id),
    attributes: (r) => ({ relation: r.relation, contact_id: r.contactId, related_contact_id: r.relatedContactId }),
  });
  router.get(
    `${BASE}/:id/relations/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: { summary: "A contact's relations to other contacts.", tags, security, params: idParams },
    },
    async (request) => {
      const id = numericId(request.params.id, `Contact ${request.params.id} not found.`);
      const rows = await db
        .select()
        .from(contactRelation)
        .where(or(eq(contactRelation.contactId, id), eq(contactRelation.relatedContactId, id)));
      return serializeDocument(relationResource, rows);
    },
  );

  registerCollection(router, db, {
    path: 'integrations/contacts',
    type: 'contact',
    table: contact,
    thing: 'contact',
    summary: 'contacts (filters: name, email, kind)',
    allowPut: true,
    hidden: ['ssn'],
    attributes: {
      kind: z.enum(['person', 'organization']).optional(),
      first_name: z.string().trim().max(100).optional(),
      last_name: z.string().trim().max(100).optional(),
      name: z.string().trim().min(1).max(200),
      dob: z.iso.date().nullable().optional(),
      email: z.union([z.email(), z.literal('')]).optional(),
      phone: z.string().trim().max(50).optional(),
      addresses: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
    },
    relationships: { gender: { type: 'gender', column: 'genderId' } },
    filters: {
      name: { column: 'name', kind: 'text' },
      email: { column: 'email', kind: 'text' },
      kind: { column: 'kind', kind: 'text' },
    },
  });
}
