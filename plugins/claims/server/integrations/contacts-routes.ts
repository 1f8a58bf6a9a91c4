import { and, asc, eq } from 'drizzle-orm';
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
import {
  CONTACT_RECORDS,
  type ContactRecord,
  type ContactRecords,
  type RecordInput,
} from '@atrium/plugin-contacts/records';
import { filterShape, filterValue } from '../core/query-filters.js';
import { lookup } from '../core/tables.js';
import { handOverContacts } from './contact-handover.js';

/**
 * The contacts integration: list with filters, create, read, replace (PUT) and change, notes,
 * relations, address by ZIP, SSN validation and the duplicate-SSN setting, genders and address
 * types. The contacts live in the contacts module's store and are read and written through its
 * `contacts.records` service (docs/contacts.md, "Claims' contacts"); a contact's id here is its store
 * number (`CON-1001` is 1001). Claims keeps the paths, payloads, messages, its permissions
 * (claims:contact) and its audit log. A contact's `ssn` is answered masked (`***-**-1234`) except
 * to a caller holding claims:contact read-ssn reading that one contact, which is audited.
 */
const BASE = '/integrations/contacts';
/** Duplicate SSNs are refused unless this is turned on; there is no setting screen for it yet. */
export const ALLOW_DUPLICATE_SSN = false;

export interface ContactSettings {
  allowDuplicateSsn: boolean;
}

const notFound = (id: string) => `Contact ${id} not found.`;

/** One contact the caller may read (by its number), or 404. */
async function existingContact(
  records: ContactRecords,
  db: Database,
  request: FastifyRequest,
  rawId: string,
  options: { revealSsn?: string } = {},
): Promise<ContactRecord> {
  const number = numericId(rawId, notFound(rawId));
  const found = await records.get(db, request, number, options);
  if (!found) throw new ApiError(404, notFound(rawId));
  return found;
}

export function contactsRoutes(
  router: AtriumRouter,
  context: ServerPluginContext,
  settings: ContactSettings = { allowDuplicateSsn: ALLOW_DUPLICATE_SSN },
): void {
  const db = context.db;
  const records = context.service(CONTACT_RECORDS);
  // Rows still in claims' own contact tables move into the store at start (contact-handover.ts).
  const handover = handOverContacts(context, records);
  router.addHook('onClose', async () => handover);
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
      const row = await records.addressByZip(db, request.query.zip);
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
      const valid = SSN_PATTERN.test(request.query.ssn);
      const holders = valid ? await records.ssnHolders(db, request.query.ssn) : [];
      const others = holders.filter((number) => number !== request.query.contact_id);
      return {
        jsonapi: { version: '1.1' },
        meta: {
          valid,
          duplicate: others.length > 0,
          allowed: valid && (settings.allowDuplicateSsn || others.length === 0),
          contact_ids: others,
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

  const noteResource = defineResource<Awaited<ReturnType<ContactRecords['notes']>>[number]>({
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
      const found = await existingContact(records, db, request, request.params.id);
      return serializeDocument(noteResource, await records.notes(db, found.number));
    },
  );

  const relationResource = defineResource<Awaited<ReturnType<ContactRecords['relations']>>[number]>({
    type: 'contact-relation',
    id: (r) => String(r.id),
    attributes: (r) => ({
      relation: r.relation,
      contact_id: r.contactNumber,
      contact_name: r.contactName,
      related_contact_id: r.relatedNumber,
      related_contact_name: r.relatedName,
    }),
  });
  router.get(
    `${BASE}/:id/relations/`,
    {
      config: { jsonapi: true, access: claimsPermission('contact', 'read') },
      schema: { summary: "A contact's relations to other contacts.", tags, security, params: idParams },
    },
    async (request) => {
      const found = await existingContact(records, db, request, request.params.id);
      return serializeDocument(relationResource, await records.relations(db, found.number));
    },
  );

  registerContactCollection(router, context, records, settings);
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

/** A store contact as answered: its gender as claims' lookup id, its SSN attributes for the caller. */
type ContactView = ContactRecord & { genderId: number | null; unmasked: boolean };

const ssnAttributes = (r: ContactView) => {
  if (!r.ssn.onFile) return { ssn: null, has_ssn: false, ssn_last4: null };
  return { ssn: r.unmasked && r.ssn.full ? r.ssn.full : r.ssn.masked, has_ssn: true, ssn_last4: r.ssn.last4 };
};

const contactResource = defineResource<ContactView>({
  type: 'contact',
  id: (r) => String(r.number),
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
    ...ssnAttributes(r),
    created_at: r.createdAt,
  }),
  relationships: {
    gender: { resource: () => typeOnly('gender'), ids: (r) => (r.genderId == null ? null : String(r.genderId)) },
  },
});

/** The audit log never holds an SSN, sealed or hashed either. */
const withoutSsn = ({ ssn, ...record }: ContactRecord) => ({ ...record, ssn: ssn.onFile ? '***' : null });

/**
 * The contact collection: search (name, e-mail and phone contain the text, any case; kind and ZIP
 * exact), create, read, replace (PUT) and change (PATCH). An SSN must be well formed and, unless
 * duplicate SSNs are allowed, not another contact's (400 at /data/attributes/ssn, code
 * `duplicate_ssn`, found by keyed hash); the store seals it. Lists and write answers mask it; reading
 * one contact answers it in full to a caller holding claims:contact read-ssn, and audits that.
 */
function registerContactCollection(
  router: AtriumRouter,
  context: ServerPluginContext,
  records: ContactRecords,
  settings: ContactSettings,
): void {
  const db = context.db;
  const idParams = z.strictObject({ id: z.string().max(20) });
  /** Whether the caller may see SSNs unmasked (the access evaluator, for the caller's effective role). */
  const mayReadSsn = async (request: FastifyRequest) => {
    const evaluator = context.services.evaluator;
    if (!evaluator || !request.principal) return false;
    return (await evaluator.evaluate(request.principal, claimsPermission('contact', 'read-ssn'))).allowed;
  };

  /** Claims' gender lookups by id and by name: the store keeps the name. */
  const genders = async () => {
    const rows = await db.select({ id: lookup.id, name: lookup.name }).from(lookup).where(eq(lookup.kind, 'gender'));
    return { byName: new Map(rows.map((r) => [r.name, r.id])), byId: new Map(rows.map((r) => [r.id, r.name])) };
  };
  const views = async (rows: ContactRecord[], unmasked = false): Promise<ContactView[]> => {
    const { byName } = await genders();
    return rows.map((r) => ({ ...r, genderId: r.gender ? (byName.get(r.gender) ?? null) : null, unmasked }));
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
      const query = request.query as Record<string, unknown> & { 'page[number]': number; 'page[size]': number };
      const page = toPageRequest(query);
      const { total, rows } = await records.list(db, request, {
        name: filterValue<string>(query, 'name') || undefined,
        email: filterValue<string>(query, 'email') || undefined,
        phone: filterValue<string>(query, 'phone') || undefined,
        kind: filterValue<string>(query, 'kind') || undefined,
        zip: filterValue<string>(query, 'zip') || undefined,
        sort: (query.sort as 'name' | '-name' | 'id' | '-id' | undefined) ?? 'name',
        limit: page.size,
        offset: page.offset,
      });
      const { links, meta } = paginationLinks(`${CLAIMS_BASE}${BASE}/`, query, page, total);
      // A list is a search: it never unmasks (one contact's SSN is read one contact at a time).
      return serializeDocument(contactResource, await views(rows), { links, meta });
    },
  );

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
      const unmasked = await mayReadSsn(request);
      const username = callerOf(request);
      const row = await existingContact(
        records,
        db,
        request,
        request.params.id,
        unmasked ? { revealSsn: username } : {},
      );
      if (unmasked && row.ssn.full) {
        // Every answer that shows an SSN in full leaves an audit row: who read whose SSN, when.
        await writeAudit(db, { username, action: 'read-ssn', entityType: 'contact', entityId: row.number });
      }
      const [view] = await views([row], unmasked);
      return serializeDocument(contactResource, view!);
    },
  );

  /** The checked SSN: undefined leaves it, null clears it. */
  const checkedSsn = async (ssn: string | null | undefined, self: number | null) => {
    if (ssn === undefined) return undefined;
    if (ssn === null || ssn === '') return null;
    if (!SSN_PATTERN.test(ssn)) throw attributeError('ssn', SSN_INVALID);
    if (!settings.allowDuplicateSsn) {
      const holders = await records.ssnHolders(db, ssn);
      if (holders.some((number) => number !== self)) {
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
  /** The write as the store takes it; a gender must be one of claims' gender lookups. */
  const toInput = async (data: Body): Promise<RecordInput> => {
    const a = data.attributes ?? {};
    const input: RecordInput = {};
    if (a.kind !== undefined) input.kind = a.kind as string;
    if (a.first_name !== undefined) input.firstName = a.first_name as string;
    if (a.last_name !== undefined) input.lastName = a.last_name as string;
    if (a.name !== undefined) input.name = a.name as string;
    if (a.dob !== undefined) input.dob = a.dob as string | null;
    if (a.email !== undefined) input.email = a.email as string;
    if (a.phone !== undefined) input.phone = a.phone as string;
    if (a.addresses !== undefined) input.addresses = a.addresses as RecordInput['addresses'];
    if (data.relationships?.gender) {
      const genderId = relationshipId(data.relationships.gender.data?.id, 'gender');
      if (genderId == null) input.gender = null;
      else {
        const name = (await genders()).byId.get(genderId);
        if (!name) {
          throw new ApiError(400, `Gender ${genderId} does not exist.`, {
            source: { pointer: '/data/relationships/gender/data/id' },
          });
        }
        input.gender = name;
      }
    }
    return input;
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
      const input = await toInput(data);
      const ssn = await checkedSsn(data.attributes.ssn as string | null | undefined, null);
      if (ssn !== undefined) input.ssn = ssn;
      const created = await db.transaction(async (tx) => {
        const row = await records.create(tx, { ...input, name: input.name! }, callerOf(request));
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'create',
          entityType: 'contact',
          entityId: row.number,
          after: withoutSsn(row),
        });
        return row;
      });
      reply.status(201);
      const [view] = await views([created]);
      return serializeDocument(contactResource, view!);
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
        const input = await toInput(data);
        const before = await existingContact(records, db, request, request.params.id);
        const ssn = await checkedSsn(data.attributes?.ssn as string | null | undefined, before.number);
        if (ssn !== undefined) input.ssn = ssn;
        const updated = await db.transaction(async (tx) => {
          const changed = await records.update(tx, request, before.number, input, callerOf(request));
          if (!changed) throw new ApiError(404, notFound(request.params.id));
          if (Object.keys(input).length === 0) return changed.after;
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'update',
            entityType: 'contact',
            entityId: before.number,
            before: withoutSsn(changed.before),
            after: withoutSsn(changed.after),
          });
          return changed.after;
        });
        const [view] = await views([updated]);
        return serializeDocument(contactResource, view!);
      },
    );
  }
}
