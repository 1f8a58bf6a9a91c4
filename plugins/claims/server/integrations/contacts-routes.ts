import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  defineResource,
  pageQuerySchema,
  paginationLinks,
  resourceDocument,
  serializeDocument,
  SSN_INVALID,
  SSN_PATTERN,
  toOneRelationship,
  toPageRequest,
  typeOnly,
  z,
  type AtriumRouter,
  type Database,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { claimsPermission } from '../permissions.js';
import {
  CLAIMS_BASE,
  JSONAPI_PAGE_SIZE,
  callerOf,
  numericId,
  relationshipId,
  requireMatchingId,
  security,
  tags,
  writeAudit,
} from '../core/http-kit.js';
import { filterShape, filterValue } from '../core/query-filters.js';
import { contact, contactNote, contactRelation, lookup, zipCode } from '../core/tables.js';
import { ContactSsns } from './contact-ssns.js';

/**
 * The contacts integration (until the contacts module provides contacts): list with filters,
 * create, read, replace (PUT) and change, notes, relations, address by ZIP, SSN validation and the
 * duplicate-SSN setting, genders and address types. SSNs are sealed at rest and compared by keyed
 * hash (contact-ssns.ts); a contact's `ssn` is answered masked (`***-**-1234`) except to a caller
 * holding claims:contact read-ssn reading that one contact, which is audited (docs/security.md, "SSNs").
 */
const BASE = '/integrations/contacts';
/** Duplicate SSNs are refused unless this is turned on; there is no setting screen for it yet. */
export const ALLOW_DUPLICATE_SSN = false;

export interface ContactSettings {
  allowDuplicateSsn: boolean;
}

async function existingContact(db: Database, rawId: string): Promise<number> {
  const id = numericId(rawId, `Contact ${rawId} not found.`);
  const [found] = await db.select({ id: contact.id }).from(contact).where(eq(contact.id, id));
  if (!found) throw new ApiError(404, `Contact ${rawId} not found.`);
  return id;
}

export function contactsRoutes(
  router: AtriumRouter,
  context: ServerPluginContext,
  settings: ContactSettings = { allowDuplicateSsn: ALLOW_DUPLICATE_SSN },
): void {
  const db = context.db;
  const ssns = new ContactSsns(db, context.secrets, context.log);
  // Seal what is still stored in plaintext; the first contacts request asks again (the demo seed
  // may still be committing now).
  ssns.nudge();
  // A pass still running when the server closes would write to a closed pool ("Cannot use a pool
  // after calling end"): closing waits for it.
  router.addHook('onClose', async () => ssns.settled());
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
      ssns.onRequest();
      const valid = SSN_PATTERN.test(request.query.ssn);
      const holders = valid ? await ssns.holders(db, request.query.ssn) : [];
      const others = holders.filter((h) => h.id !== request.query.contact_id);
      return {
        jsonapi: { version: '1.1' },
        meta: {
          valid,
          duplicate: others.length > 0,
          allowed: valid && (settings.allowDuplicateSsn || others.length === 0),
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
    async () => ({ jsonapi: { version: '1.1' }, meta: { allow_duplicate_ssn: settings.allowDuplicateSsn } }),
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
      const id = await existingContact(db, request.params.id);
      const rows = await db
        .select()
        .from(contactNote)
        .where(eq(contactNote.contactId, id))
        .orderBy(asc(contactNote.id));
      return serializeDocument(noteResource, rows.reverse());
    },
  );

  type RelationRow = typeof contactRelation.$inferSelect & { names: Map<number, string> };
  const relationResource = defineResource<RelationRow>({
    type: 'contact-relation',
    id: (r) => String(r.id),
    attributes: (r) => ({
      relation: r.relation,
      contact_id: r.contactId,
      contact_name: r.names.get(r.contactId) ?? null,
      related_contact_id: r.relatedContactId,
      related_contact_name: r.names.get(r.relatedContactId) ?? null,
    }),
  });
  router.get(
    `${BASE}/:id/relations/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: { summary: "A contact's relations to other contacts.", tags, security, params: idParams },
    },
    async (request) => {
      const id = await existingContact(db, request.params.id);
      const rows = await db
        .select()
        .from(contactRelation)
        .where(or(eq(contactRelation.contactId, id), eq(contactRelation.relatedContactId, id)));
      // The screens show who the relation is with, so the names of both ends come along.
      const ids = [...new Set(rows.flatMap((r) => [r.contactId, r.relatedContactId]))];
      const named = ids.length
        ? await db.select({ id: contact.id, name: contact.name }).from(contact).where(inArray(contact.id, ids))
        : [];
      const names = new Map(named.map((n) => [n.id, n.name]));
      return serializeDocument(
        relationResource,
        rows.map((r) => ({ ...r, names })),
      );
    },
  );

  registerContactCollection(router, context, ssns, settings);
}

/** An address as the contact form enters it; `type` names an address-types lookup. */
const addressSchema = z.strictObject({
  type: z.string().trim().max(50).optional(),
  line1: z.string().trim().max(200).optional(),
  line2: z.string().trim().max(200).optional(),
  city: z.string().trim().max(100).optional(),
  county: z.string().trim().max(100).optional(),
  state: z.string().trim().max(50).optional(),
  zip: z
    .string()
    .trim()
    .regex(/^(\d{5}(-\d{4})?)?$/, 'Enter a 5-digit ZIP code.')
    .optional(),
});

const contactAttributes = {
  kind: z.enum(['person', 'organization'], { error: 'Kind must be person or organization.' }).optional(),
  first_name: z.string().trim().max(100).optional(),
  last_name: z.string().trim().max(100).optional(),
  name: z.string().trim().min(1, 'This field is required.').max(200),
  dob: z.iso.date({ error: 'Enter a date as YYYY-MM-DD.' }).nullable().optional(),
  email: z.union([z.email({ error: 'Enter a valid e-mail address.' }), z.literal('')]).optional(),
  phone: z.string().trim().max(50).optional(),
  /** Answered masked (`***-**-1234`) unless the caller may read SSNs; null or '' clears it. */
  ssn: z.string().trim().max(20).nullable().optional(),
  addresses: z.array(addressSchema).max(20).optional(),
};
const contactRelationships = { gender: toOneRelationship('gender').optional() };

const listQuery = z.strictObject({
  ...pageQuerySchema(JSONAPI_PAGE_SIZE),
  ...filterShape({
    name: z.string().trim().max(200).optional(),
    email: z.string().trim().max(200).optional(),
    phone: z.string().trim().max(50).optional(),
    kind: z.enum(['person', 'organization']).optional(),
    zip: z.string().trim().max(10).optional(),
  }),
  sort: z.enum(['name', '-name', 'id', '-id']).optional(),
});

type ContactRow = typeof contact.$inferSelect;
/** A row as answered: its SSN attributes worked out for the caller (masked or not). */
type ContactView = ContactRow & { ssnAttributes: ReturnType<ContactSsns['attributesOf']> };

const contactResource = defineResource<ContactView>({
  type: 'contact',
  id: (r) => String(r.id),
  basePath: `${CLAIMS_BASE}${BASE}/`,
  attributes: (r) => ({
    kind: r.kind,
    first_name: r.firstName,
    last_name: r.lastName,
    name: r.name,
    dob: r.dob,
    email: r.email,
    phone: r.phone,
    addresses: r.addresses,
    ...r.ssnAttributes,
    created_at: r.createdAt,
  }),
  relationships: {
    gender: { resource: () => typeOnly('gender'), ids: (r) => (r.genderId == null ? null : String(r.genderId)) },
  },
});

/** `%`, `_` and `\` are literal in a search text. */
const likeText = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The audit log never holds an SSN, sealed or hashed either. */
const withoutSsn = ({ legacySsn, ssnSealed, ssnHash: _hash, ...row }: ContactRow) => ({
  ...row,
  ssn: legacySsn || ssnSealed ? '***' : null,
});

/**
 * The contact collection: search (name, e-mail and phone contain the text, any case; kind and ZIP
 * exact), create, read, replace (PUT) and change (PATCH). An SSN must be well formed and, unless
 * duplicate SSNs are allowed, not another contact's (400 at /data/attributes/ssn, code
 * `duplicate_ssn`, found by keyed hash); it is stored sealed. Lists and write answers mask it; reading
 * one contact answers it in full to a caller holding claims:contact read-ssn, and audits that.
 */
function registerContactCollection(
  router: AtriumRouter,
  context: ServerPluginContext,
  ssns: ContactSsns,
  settings: ContactSettings,
): void {
  const db = context.db;
  const idParams = z.strictObject({ id: z.string().max(20) });
  const notFound = (id: string) => `Contact ${id} not found.`;
  const masked = (row: ContactRow): ContactView => ({ ...row, ssnAttributes: ssns.attributesOf(row, false) });
  /** Whether the caller may see SSNs unmasked (the access evaluator, for the caller's effective role). */
  const mayReadSsn = async (request: FastifyRequest) => {
    const evaluator = context.services.evaluator;
    if (!evaluator || !request.principal) return false;
    return (await evaluator.evaluate(request.principal, claimsPermission('contact', 'read-ssn'))).allowed;
  };

  router.get(
    `${BASE}/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: {
        summary: 'Searches contacts: filter[name], filter[email], filter[phone] (contains), filter[kind], filter[zip].',
        tags,
        security,
        querystring: listQuery,
      },
    },
    async (request) => {
      ssns.onRequest();
      const query = request.query as Record<string, unknown> & { 'page[number]': number; 'page[size]': number };
      const page = toPageRequest(query);
      const conditions: SQL[] = [];
      for (const name of ['name', 'email', 'phone'] as const) {
        const value = filterValue<string>(query, name);
        if (value) conditions.push(ilike(contact[name], likeText(value)));
      }
      const kind = filterValue<string>(query, 'kind');
      if (kind) conditions.push(eq(contact.kind, kind));
      const zip = filterValue<string>(query, 'zip');
      if (zip) conditions.push(sql`${contact.addresses} @> ${JSON.stringify([{ zip }])}::jsonb`);
      const where = conditions.length ? and(...conditions) : undefined;
      const order =
        query.sort === '-name'
          ? [desc(sql`lower(${contact.name})`), desc(contact.id)]
          : query.sort === 'id'
            ? [asc(contact.id)]
            : query.sort === '-id'
              ? [desc(contact.id)]
              : [asc(sql`lower(${contact.name})`), asc(contact.id)];
      const [total] = await db.select({ n: count() }).from(contact).where(where);
      const rows = await db
        .select()
        .from(contact)
        .where(where)
        .orderBy(...order)
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${CLAIMS_BASE}${BASE}/`, query, page, total?.n ?? 0);
      // A list is a search: it never unmasks (one contact's SSN is read one contact at a time).
      return serializeDocument(contactResource, rows.map(masked), { links, meta });
    },
  );

  const load = async (tx: Pick<Database, 'select'>, rawId: string) => {
    const id = numericId(rawId, notFound(rawId));
    const [row] = await tx.select().from(contact).where(eq(contact.id, id)).limit(1);
    if (!row) throw new ApiError(404, notFound(rawId));
    return row;
  };

  router.get(
    `${BASE}/:id/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: {
        summary: 'One contact; its SSN in full to callers holding claims:contact read-ssn (audited), else masked.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      ssns.onRequest();
      const row = await load(db, request.params.id);
      const unmasked = await mayReadSsn(request);
      const ssnAttributes = ssns.attributesOf(row, unmasked);
      if (unmasked && ssnAttributes.has_ssn) {
        // Every answer that shows an SSN in full leaves an audit row: who read whose SSN, when.
        await writeAudit(db, {
          username: callerOf(request),
          action: 'read-ssn',
          entityType: 'contact',
          entityId: row.id,
        });
      }
      return serializeDocument(contactResource, { ...row, ssnAttributes });
    },
  );

  /** The checked SSN: undefined leaves it, null clears it. */
  const checkedSsn = async (tx: Pick<Database, 'select'>, ssn: string | null | undefined, self: number | null) => {
    if (ssn === undefined) return undefined;
    if (ssn === null || ssn === '') return null;
    if (!SSN_PATTERN.test(ssn)) throw attributeError('ssn', SSN_INVALID);
    if (!settings.allowDuplicateSsn) {
      const holders = await ssns.holders(tx, ssn);
      if (holders.some((h) => h.id !== self)) {
        throw new ApiError(400, 'Another contact already has this SSN.', {
          source: { pointer: '/data/attributes/ssn' },
          code: 'duplicate_ssn',
        });
      }
    }
    return ssn;
  };

  type Body = {
    attributes?: Partial<Record<keyof typeof contactAttributes, unknown>>;
    relationships?: { gender?: { data: { id: string } | null } };
  };
  const toValues = (data: Body) => {
    const a = data.attributes ?? {};
    const values: Partial<typeof contact.$inferInsert> = {};
    if (a.kind !== undefined) values.kind = a.kind as string;
    if (a.first_name !== undefined) values.firstName = a.first_name as string;
    if (a.last_name !== undefined) values.lastName = a.last_name as string;
    if (a.name !== undefined) values.name = a.name as string;
    if (a.dob !== undefined) values.dob = a.dob as string | null;
    if (a.email !== undefined) values.email = a.email as string;
    if (a.phone !== undefined) values.phone = a.phone as string;
    if (a.addresses !== undefined) values.addresses = a.addresses as Record<string, unknown>[];
    if (data.relationships?.gender) values.genderId = relationshipId(data.relationships.gender.data?.id, 'gender');
    return values;
  };
  const checkGender = async (values: Partial<typeof contact.$inferInsert>) => {
    if (values.genderId == null) return;
    const [found] = await db
      .select({ id: lookup.id })
      .from(lookup)
      .where(and(eq(lookup.id, values.genderId), eq(lookup.kind, 'gender')));
    if (!found) {
      throw new ApiError(400, `Gender ${values.genderId} does not exist.`, {
        source: { pointer: '/data/relationships/gender/data/id' },
      });
    }
  };

  router.post(
    `${BASE}/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'create') },
      schema: {
        summary: 'Creates a contact (SSN checked: well formed, not another contact’s unless allowed).',
        tags,
        security,
        body: resourceDocument('contact', contactAttributes, { relationships: contactRelationships }),
      },
    },
    async (request, reply) => {
      const data = request.body.data as Body;
      if (data.attributes?.name === undefined) throw attributeError('name', 'This field is required.');
      const values = toValues(data);
      await checkGender(values);
      ssns.onRequest();
      const ssn = await checkedSsn(db, data.attributes.ssn as string | null | undefined, null);
      const created = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(contact)
          .values(values as typeof contact.$inferInsert)
          .returning();
        // The sealed SSN is bound to its row, whose id the insert made.
        const [row] = ssn
          ? await tx
              .update(contact)
              .set(ssns.columns(inserted!.id, ssn))
              .where(eq(contact.id, inserted!.id))
              .returning()
          : [inserted];
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'create',
          entityType: 'contact',
          entityId: row!.id,
          after: withoutSsn(row!),
        });
        return row!;
      });
      reply.status(201);
      return serializeDocument(contactResource, masked(created));
    },
  );

  for (const method of ['put', 'patch'] as const) {
    router[method](
      `${BASE}/:id/`,
      {
        config: { jsonapi: true, access: claimsPermission('contact', 'update') },
        schema: {
          summary: method === 'put' ? 'Replaces a contact (the contacts screens save with PUT).' : 'Changes a contact.',
          tags,
          security,
          params: idParams,
          body: resourceDocument(
            'contact',
            Object.fromEntries(Object.entries(contactAttributes).map(([k, v]) => [k, v.optional()])),
            { id: 'required', relationships: contactRelationships },
          ),
        },
      },
      async (request) => {
        requireMatchingId(request.body.data.id, request.params.id);
        const data = request.body.data as Body;
        const values = toValues(data);
        await checkGender(values);
        ssns.onRequest();
        const before = await load(db, request.params.id);
        const ssn = await checkedSsn(db, data.attributes?.ssn as string | null | undefined, before.id);
        if (ssn !== undefined) Object.assign(values, ssns.columns(before.id, ssn));
        const updated = await db.transaction(async (tx) => {
          const current = await load(tx, request.params.id);
          if (Object.keys(values).length === 0) return current;
          const [row] = await tx.update(contact).set(values).where(eq(contact.id, current.id)).returning();
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'update',
            entityType: 'contact',
            entityId: current.id,
            before: withoutSsn(current),
            after: withoutSsn(row!),
          });
          return row!;
        });
        return serializeDocument(contactResource, masked(updated));
      },
    );
  }
}
