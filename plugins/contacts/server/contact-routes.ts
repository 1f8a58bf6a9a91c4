import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  registerResources,
  resourceDefinitionOf,
  serializeDocument,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { CONTACT_CLAIMS, type ContactClaim } from '../shared/contact-directory.js';
import { contactMergeRoutes } from './contact-merge.js';
import { contactStore, ssnContext, writeAudit, type ContactRow } from './contact-store.js';
import { contactsPermissions } from './permissions.js';
import { contact, contactRelation, quotingPermission } from './tables.js';

const tags = ['contacts'];
const security = [{ bearer: [] as string[] }];
const read = contactsPermissions.can('contact', 'read');

/** `%`, `_` and `\` are literal in a search text. */
export const likeText = (value: string) => `%${value.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The contact profile of the classic calls (spec: contactId, name, roles, addresses, phones, emails, website, dob, agencies). */
export function contactProfile(row: ContactRow) {
  return {
    contactId: row.id,
    name: row.name,
    type: row.kind === 'organization' ? 'organization' : 'individual',
    roles: row.roles,
    addresses: row.addresses,
    phones: row.phones.map((p) => p.number),
    emails: row.emails.map((e) => e.address),
    website: row.website,
    dob: row.dob,
    agencies: row.agencyId ? [{ id: row.agencyId }] : [],
  };
}

/**
 * Every route of the module: the declared resources (contacts, notes, relations, quoting
 * permissions), the name search, an SSN in full (audited), the claims a contact is a party to, the
 * classic /v2/contacts calls and the classic gateway's contact files.
 */
/** Contacts within `scope` whose name (or e-mail, or phone) contains the text, in name order. */
export function searchContacts(
  db: ServerPluginContext['db'],
  scope: SQL | undefined,
  text: string,
  limit: number,
  role?: string,
  by?: 'email',
) {
  const pattern = likeText(text);
  const match: SQL | undefined =
    by === 'email'
      ? sql`${contact.emails}::text ilike ${pattern}`
      : or(
          ilike(contact.name, pattern),
          sql`${contact.emails}::text ilike ${pattern}`,
          sql`${contact.phones}::text ilike ${pattern}`,
        );
  return db
    .select()
    .from(contact)
    .where(and(match, role ? sql`${contact.roles} @> ${JSON.stringify([role])}::jsonb` : undefined, scope))
    .orderBy(asc(sql`lower(${contact.name})`), asc(contact.id))
    .limit(limit);
}

export function contactRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const store = contactStore(context);
  registerResources(router, context, [store.contacts, store.notes, store.relations, store.quotingPermissions]);
  const definition = resourceDefinitionOf(store.contacts, context);
  contactMergeRoutes(router, context, store);

  const search = async (request: FastifyRequest, text: string, limit: number, role?: string, by?: 'email') =>
    searchContacts(db, await store.readScope(request), text, limit, role, by);

  /** One contact the caller may read, or 404 as for a missing one. */
  const readable = async (request: FastifyRequest, id: string) => {
    const scope = await store.readScope(request);
    const [row] = await db
      .select()
      .from(contact)
      .where(and(eq(contact.id, id), scope))
      .limit(1);
    if (!row) throw new ApiError(404, `Contact ${id} not found.`);
    return row;
  };

  router.get(
    '/contacts/search/',
    {
      config: { jsonapi: true, access: read },
      schema: {
        summary: 'Contacts whose name, e-mail or phone contains the text (any case), within the caller’s book.',
        tags,
        security,
        querystring: z.strictObject({
          q: z.string().trim().min(1, 'Enter a text to search for.').max(200),
          role: z.string().trim().max(50).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(25),
        }),
      },
    },
    async (request) => {
      const { q, role, limit } = request.query;
      return serializeDocument(definition, await search(request, q, limit, role));
    },
  );

  const idParams = z.strictObject({ id: z.string().max(50) });

  router.get(
    '/contacts/contacts/:id/ssn/',
    {
      config: { access: contactsPermissions.can('contact', 'read-ssn') },
      schema: { summary: "A contact's SSN in full; every answer is audited.", tags, security, params: idParams },
    },
    async (request) => {
      const row = await readable(request, request.params.id);
      if (!row.ssnSealed) return { ssn: null };
      const ssn = store.vault.open(row.ssnSealed, ssnContext(row.id));
      await writeAudit(db, {
        action: 'read-ssn',
        type: 'contact',
        id: row.id,
        username: request.principal?.username ?? 'system',
      });
      return { ssn };
    },
  );

  router.get(
    '/contacts/contacts/:id/claims/',
    {
      config: { access: read },
      schema: {
        summary: 'The claims this contact is a party to that the caller may read (from the claims module).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const row = await readable(request, request.params.id);
      // Without the claims module installed the contact is a party to no claim here.
      const claims = context.optionalService(CONTACT_CLAIMS);
      const results: ContactClaim[] = claims
        ? await claims.claimsOfContact(db, { id: row.id, number: row.number, name: row.name }, request)
        : [];
      return { count: results.length, results };
    },
  );

  // The classic calls (spec: POST /api/v2/contacts/…), in the classic envelope { success, data }.
  const contactIdBody = z.strictObject({ contact_id: z.string().trim().min(1).max(50) });
  const classic = (summary: string) => ({ config: { access: read }, schema: { summary, tags, security } });

  router.post(
    '/v2/contacts/get_contact_by_cognito_username',
    {
      ...classic('The contact profile of a user, by sign-in user name.'),
      schema: {
        ...classic('').schema,
        summary: 'The contact profile of a user, by sign-in user name.',
        body: z.strictObject({ cognito_username: z.string().trim().min(1).max(320) }),
      },
    },
    async (request) => {
      const username = request.body.cognito_username.toLowerCase();
      const scope = await store.readScope(request);
      const [row] = await db
        .select()
        .from(contact)
        .where(and(eq(contact.username, username), scope))
        .limit(1);
      if (!row) throw new ApiError(404, `No contact for the user ${request.body.cognito_username}.`);
      return { success: true, data: contactProfile(row) };
    },
  );

  router.post(
    '/v2/contacts/list_emails_for_contact',
    {
      ...classic(''),
      schema: { ...classic('').schema, summary: "A contact's e-mail addresses.", body: contactIdBody },
    },
    async (request) => {
      const row = await readable(request, request.body.contact_id);
      return { success: true, data: row.emails.map((e) => ({ email: e.address, type: e.type ?? null })) };
    },
  );

  router.post(
    '/v2/contacts/retrieve_related_contacts',
    {
      ...classic(''),
      schema: { ...classic('').schema, summary: 'The contacts related to a contact, both ways.', body: contactIdBody },
    },
    async (request) => {
      const row = await readable(request, request.body.contact_id);
      const links = await db
        .select()
        .from(contactRelation)
        .where(or(eq(contactRelation.contactId, row.id), eq(contactRelation.relatedContactId, row.id)));
      const otherIds = links.map((l) => (l.contactId === row.id ? l.relatedContactId : l.contactId));
      const scope = await store.readScope(request);
      const others = otherIds.length
        ? await db
            .select()
            .from(contact)
            .where(and(inArray(contact.id, otherIds), scope))
        : [];
      const byId = new Map(others.map((o) => [o.id, o]));
      return {
        success: true,
        data: links.flatMap((l) => {
          const other = byId.get(l.contactId === row.id ? l.relatedContactId : l.contactId);
          return other ? [{ relation: l.relation, ...contactProfile(other) }] : [];
        }),
      };
    },
  );

  router.post(
    '/v2/contacts/retrieve_quoting_permissions',
    {
      ...classic(''),
      schema: {
        ...classic('').schema,
        summary: 'What a producer may quote, submit and bind, per product and state.',
        body: contactIdBody,
      },
    },
    async (request) => {
      const row = await readable(request, request.body.contact_id);
      const grants = await db
        .select()
        .from(quotingPermission)
        .where(eq(quotingPermission.contactId, row.id))
        .orderBy(asc(quotingPermission.product), asc(quotingPermission.state));
      const byKey = new Map<
        string,
        { product: string; state: string; quote: boolean; submit: boolean; bind: boolean }
      >();
      for (const g of grants) {
        const key = `${g.product}\u0000${g.state}`;
        const entry = byKey.get(key) ?? {
          product: g.product,
          state: g.state,
          quote: false,
          submit: false,
          bind: false,
        };
        entry[g.action as 'quote' | 'submit' | 'bind'] = true;
        byKey.set(key, entry);
      }
      return { success: true, data: [...byKey.values()] };
    },
  );
}
