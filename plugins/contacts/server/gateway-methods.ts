import { and, asc, ilike, or, sql } from 'drizzle-orm';
import { defineGatewayMethod, z, type GatewayMethod, type ServerPluginContext } from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { contactProfile, likeText, searchContacts } from './contact-routes.js';
import { contactStore, type ContactRow, type ContactStore } from './contact-store.js';
import { contactsPermissions } from './permissions.js';
import { contact } from './tables.js';

const read = contactsPermissions.can('contact', 'read');

// One store per server (its context), built on the first call.
const stores = new WeakMap<ServerPluginContext['db'], ContactStore>();
const storeOf = (context: ServerPluginContext) => {
  let store = stores.get(context.db);
  if (!store) stores.set(context.db, (store = contactStore(context)));
  return store;
};

const search = async (
  call: { request: FastifyRequest; context: ServerPluginContext },
  text: string,
  role?: string,
  by?: 'email',
) => searchContacts(call.context.db, await storeOf(call.context).readScope(call.request), text, 10, role, by);

const suggestion = (row: ContactRow) => ({ id: row.id, name: row.name, email: row.emails[0]?.address ?? '' });

/**
 * The classic gateway's contact methods (spec: contacts.views retrieveContactList, more.ajax_suggest
 * ajaxSuggestContacts and ajaxSuggestEmails), answered on the server's /api/gateway route. Each
 * reads within the caller's book, like every other contacts read.
 */
export const contactGatewayMethods: GatewayMethod<any>[] = [
  defineGatewayMethod({
    file: 'contacts.views',
    method: 'retrieveContactList',
    summary: 'A page of contacts by name or e-mail, optionally of one role.',
    access: read,
    body: z.strictObject({
      searchString: z.string().max(200).optional(),
      filter: z.string().max(50).optional(),
      currentPage: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(100).default(25),
    }),
    async handler(input, { request, context }) {
      const scope = await storeOf(context).readScope(request);
      const text = input.searchString?.trim();
      const match = text
        ? or(ilike(contact.name, likeText(text)), sql`${contact.emails}::text ilike ${likeText(text)}`)
        : undefined;
      const role = input.filter?.trim()
        ? sql`${contact.roles} @> ${JSON.stringify([input.filter.trim()])}::jsonb`
        : undefined;
      const where = and(match, role, scope);
      const [total] = (await context.db
        .select({ n: sql<number>`count(*)::int` })
        .from(contact)
        .where(where)) as { n: number }[];
      const rows = await context.db
        .select()
        .from(contact)
        .where(where)
        .orderBy(asc(sql`lower(${contact.name})`), asc(contact.id))
        .limit(input.pageSize)
        .offset((input.currentPage - 1) * input.pageSize);
      return { success: true, data: { total: total?.n ?? 0, contacts: rows.map(contactProfile) } };
    },
  }),
  defineGatewayMethod({
    file: 'more.ajax_suggest',
    method: 'ajaxSuggestContacts',
    summary: 'Up to 10 contacts whose name, e-mail or phone contains the query (from 3 characters).',
    access: read,
    body: z.strictObject({
      query: z.string().max(200),
      searchParameters: z
        .strictObject({
          filters: z.record(z.string(), z.unknown()).optional(),
          include: z.array(z.string().max(50)).max(20).optional(),
        })
        .optional(),
    }),
    async handler(input, call) {
      if (input.query.trim().length < 3) return { success: true, data: [] };
      const role = input.searchParameters?.filters?.role;
      const rows = await search(call, input.query, typeof role === 'string' ? role : undefined);
      return { success: true, data: rows.map(suggestion) };
    },
  }),
  defineGatewayMethod({
    file: 'more.ajax_suggest',
    method: 'ajaxSuggestEmails',
    summary: 'E-mail addresses containing the query, with their contact (from 3 characters).',
    access: read,
    body: z.strictObject({ query: z.string().max(320) }),
    async handler(input, call) {
      // Spec: contact e-mail search starts at 3 characters.
      if (input.query.trim().length < 3) return { success: true, data: [] };
      const rows = await search(call, input.query, undefined, 'email');
      const needle = input.query.trim().toLowerCase();
      return {
        success: true,
        data: rows.flatMap((row) =>
          row.emails
            .filter((e) => e.address.toLowerCase().includes(needle))
            .map((e) => ({ name: row.name, email: e.address })),
        ),
      };
    },
  }),
];
