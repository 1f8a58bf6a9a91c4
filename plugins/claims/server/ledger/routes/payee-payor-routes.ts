import type { FastifyRequest } from 'fastify';
import { and, asc, count, eq, ilike } from 'drizzle-orm';
import {
  ApiError,
  defineResource,
  pageQuerySchema,
  paginationLinks,
  resourceDocument,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../../permissions.js';
import { claimAccessFilter } from '../../core/claim-access.js';
import { claim, party } from '../../core/tables.js';
import { LEDGER_BASE } from '../resources.js';
import { ledgerTransaction, payee, payor } from '../tables.js';
import { idParams } from './schemas.js';

/**
 * CRUD of payees/ (who payments go to) and payors/ (who recoveries come from). Reference data, not
 * ledger rows: they may be changed; one named by a posted transaction cannot be deleted (409).
 */
const tags = ['claims', 'claims-ledger'];
const security = [{ bearer: [] }];

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const name = z.string().trim().min(1, 'This field may not be blank.').max(200);
const optionalText = (max: number) => z.string().max(max).nullable().optional();

type PayeeRow = typeof payee.$inferSelect;
type PayorRow = typeof payor.$inferSelect;

const payeeResource = defineResource<PayeeRow>({
  type: 'payees',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/payees/`,
  attributes: (r) => ({
    name: r.name,
    payee_type: r.payeeType,
    tax_id: r.taxId,
    email: r.email,
    address: r.address,
    party_id: r.partyId,
  }),
});
const payorResource = defineResource<PayorRow>({
  type: 'payors',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/payors/`,
  attributes: (r) => ({ name: r.name, payor_type: r.payorType, email: r.email, address: r.address }),
});

// Hand-written, not a resource declaration (yet): a payee can be made from a claim party the caller may read (name copied, party kept), and 'in use' is read from posted transactions' JSON details.
export function registerPayeePayorRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;
  const setups = [
    {
      path: 'payees',
      label: 'Payee',
      table: payee,
      resource: payeeResource,
      permission: 'payment' as const,
      attributes: {
        // Not required with party_id (the party names it); otherwise the route asks for it.
        name: name.optional(),
        payee_type: z.enum(['person', 'company', 'vendor', 'attorney']).optional(),
        tax_id: optionalText(30),
        email: z.email().nullable().optional(),
        address: z.string().max(500).optional(),
        party_id: z.number().int().min(1).max(2147483647).optional(),
      } as z.ZodRawShape,
      toColumns: (a: Record<string, unknown>) => ({
        ...(a.name !== undefined ? { name: a.name as string } : {}),
        ...(a.payee_type !== undefined ? { payeeType: a.payee_type as string } : {}),
        ...(a.tax_id !== undefined ? { taxId: a.tax_id as string | null } : {}),
        ...(a.email !== undefined ? { email: a.email as string | null } : {}),
        ...(a.address !== undefined ? { address: a.address as string } : {}),
      }),
      inUse: async (id: number) => {
        const rows = await db
          .select({ details: ledgerTransaction.details })
          .from(ledgerTransaction)
          .where(eq(ledgerTransaction.type, 'payment'));
        return rows.some((r) => ((r.details.payee_ids as number[] | undefined) ?? []).includes(id));
      },
    },
    {
      path: 'payors',
      label: 'Payor',
      table: payor,
      resource: payorResource,
      permission: 'recovery' as const,
      attributes: {
        name,
        payor_type: z.enum(['insurer', 'person', 'company', 'salvage_buyer']).optional(),
        email: z.email().nullable().optional(),
        address: z.string().max(500).optional(),
      } as z.ZodRawShape,
      toColumns: (a: Record<string, unknown>) => ({
        ...(a.name !== undefined ? { name: a.name as string } : {}),
        ...(a.payor_type !== undefined ? { payorType: a.payor_type as string } : {}),
        ...(a.email !== undefined ? { email: a.email as string | null } : {}),
        ...(a.address !== undefined ? { address: a.address as string } : {}),
      }),
      inUse: async (id: number) => {
        const rows = await db
          .select({ details: ledgerTransaction.details })
          .from(ledgerTransaction)
          .where(eq(ledgerTransaction.type, 'recovery'));
        return rows.some((r) => r.details.payor_id === id);
      },
    },
  ];

  const payeeOfParty = async (request: FastifyRequest, partyId: number) => {
    const readable = await claimAccessFilter(context, request, 'read');
    const [named] = await db
      .select({ id: party.id, name: party.name })
      .from(party)
      .innerJoin(claim, eq(claim.id, party.claimId))
      .where(and(eq(party.id, partyId), readable))
      .limit(1);
    if (!named) {
      throw new ApiError(400, `Party ${partyId} not found.`, { source: { pointer: '/data/attributes/party_id' } });
    }
    const [inserted] = await db
      .insert(payee)
      .values({ name: named.name, partyId: named.id })
      .onConflictDoNothing({ target: payee.partyId })
      .returning();
    if (inserted) return { row: inserted, created: true };
    const [existing] = await db.select().from(payee).where(eq(payee.partyId, named.id));
    return { row: existing!, created: false };
  };

  for (const setup of setups) {
    const table = setup.table as typeof payee;
    const resource = setup.resource as ReturnType<typeof defineResource<PayeeRow>>;
    const load = async (id: number) => {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      if (!row) throw new ApiError(404, `${setup.label} ${id} not found.`);
      return row;
    };
    router.get(
      `/${setup.path}/`,
      {
        config: { jsonapi: true, access: claimsPermission(setup.permission, 'read') },
        schema: {
          summary: `Lists ${setup.path} in name order; filter[name] matches part of the name.`,
          tags,
          security,
          querystring: z.strictObject({ ...pageQuerySchema(250), 'filter[name]': z.string().max(200).optional() }),
        },
      },
      async (request) => {
        const page = toPageRequest(request.query);
        const filter = request.query['filter[name]'];
        const where = filter ? ilike(table.name, `%${escapeLike(filter)}%`) : undefined;
        const [total] = await db.select({ n: count() }).from(table).where(where);
        const rows = await db
          .select()
          .from(table)
          .where(where)
          .orderBy(asc(table.name), asc(table.id))
          .limit(page.size)
          .offset(page.offset);
        const { links, meta } = paginationLinks(`${LEDGER_BASE}/${setup.path}/`, request.query, page, total?.n ?? 0);
        return serializeDocument(resource, rows, { links, meta });
      },
    );
    router.get(
      `/${setup.path}/:id/`,
      {
        config: { jsonapi: true, access: claimsPermission(setup.permission, 'read') },
        schema: { summary: `One ${setup.label.toLowerCase()}.`, tags, security, params: idParams },
      },
      async (request) => serializeDocument(resource, await load(Number(request.params.id))),
    );
    router.post(
      `/${setup.path}/`,
      {
        config: { jsonapi: true, access: claimsPermission(setup.permission, 'create') },
        schema: {
          summary:
            setup.path === 'payees'
              ? 'Creates a payee (name required); with party_id, the payee of that claim party (found, 200, or made, 201).'
              : `Creates a ${setup.label.toLowerCase()} (name required).`,
          tags,
          security,
          body: resourceDocument(setup.path, setup.attributes),
        },
      },
      async (request, reply) => {
        const attributes = (request.body.data.attributes ?? {}) as Record<string, unknown>;
        if (setup.path === 'payees' && typeof attributes.party_id === 'number') {
          // A claim's party as payee: its one payee row, found or made (named after the party).
          const found = await payeeOfParty(request, attributes.party_id);
          reply.status(found.created ? 201 : 200);
          return serializeDocument(resource, found.row);
        }
        if (attributes.name === undefined) {
          throw new ApiError(400, 'This field is required.', {
            source: { pointer: '/data/attributes/name' },
            code: 'required',
          });
        }
        const [row] = await db
          .insert(table)
          .values(setup.toColumns(attributes) as typeof payee.$inferInsert)
          .returning();
        reply.status(201);
        return serializeDocument(resource, row!);
      },
    );
    router.patch(
      `/${setup.path}/:id/`,
      {
        config: { jsonapi: true, access: claimsPermission(setup.permission, 'update') },
        schema: {
          summary: `Changes a ${setup.label.toLowerCase()}.`,
          tags,
          security,
          params: idParams,
          body: resourceDocument(
            setup.path,
            Object.fromEntries(Object.entries(setup.attributes).map(([k, v]) => [k, (v as z.ZodType).optional()])),
            { id: 'required' },
          ),
        },
      },
      async (request) => {
        if (request.body.data.id !== request.params.id) {
          throw new ApiError(409, 'The id in the body does not match the URL.', { source: { pointer: '/data/id' } });
        }
        const id = Number(request.params.id);
        await load(id);
        const columns = setup.toColumns((request.body.data.attributes ?? {}) as Record<string, unknown>);
        if (Object.keys(columns).length > 0) await db.update(table).set(columns).where(eq(table.id, id));
        return serializeDocument(resource, await load(id));
      },
    );
    router.delete(
      `/${setup.path}/:id/`,
      {
        config: { jsonapi: true, access: claimsPermission(setup.permission, 'delete') },
        schema: {
          summary: `Deletes a ${setup.label.toLowerCase()} no transaction names.`,
          tags,
          security,
          params: idParams,
        },
      },
      async (request, reply) => {
        const id = Number(request.params.id);
        await load(id);
        if (await setup.inUse(id)) {
          throw new ApiError(409, `${setup.label} ${id} is named by a ledger transaction and cannot be deleted.`, {
            code: 'in_use',
          });
        }
        await db.delete(table).where(eq(table.id, id));
        reply.status(204);
        return null;
      },
    );
  }
}
