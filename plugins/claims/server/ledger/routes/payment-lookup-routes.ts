import { and, asc, eq, sql } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  defineResource,
  resourceDocument,
  serializeDocument,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { lookup } from '../../core/tables.js';
import { callerOf, isUniqueViolation, writeAudit } from '../../core/http-kit.js';
import { claimsPermission } from '../../permissions.js';
import { ledgerTransaction } from '../tables.js';
import { PAYMENT_METHODS } from './schemas.js';

/**
 * payment-methods/ and pay-codes/ (docs/claims-accounting.md, "Payment methods and pay codes"): the
 * lists claims finance maintains. Each starts with the built-in rows (methods check, ach, wire,
 * card; pay codes loss, expense), kept in the lookup table (kinds `payment-method`, `pay-code`). A
 * row's name is what payments record, so it never changes; a built-in row or one a transaction
 * names is deactivated (`active: false`), never deleted (409). A payment names an active payment method.
 */
const tags = ['claims', 'claims-ledger'];
const security = [{ bearer: [] }];

interface LookupKind {
  path: 'payment-methods' | 'pay-codes';
  kind: 'payment-method' | 'pay-code';
  title: string;
  /** The payment attribute (in ledger_transaction.details) that records the name. */
  detail: 'payment_method' | 'pay_code';
  defaults: [name: string, label: string][];
}

const KINDS: LookupKind[] = [
  {
    path: 'payment-methods',
    kind: 'payment-method',
    title: 'Payment method',
    detail: 'payment_method',
    defaults: PAYMENT_METHODS.map((name, i) => [name, ['Check', 'ACH', 'Wire', 'Card'][i] ?? name]),
  },
  {
    path: 'pay-codes',
    kind: 'pay-code',
    title: 'Pay code',
    detail: 'pay_code',
    defaults: [
      ['loss', 'Loss payment'],
      ['expense', 'Expense payment'],
    ],
  },
];

type Row = typeof lookup.$inferSelect;

const nameText = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field is required.')
  .max(50, 'Name must be 50 characters or less.')
  .regex(/^\S*$/, 'The Name cannot contain spaces.')
  .regex(/^[a-z0-9_-]*$/, 'Name may only contain lower-case letters, digits, - and _.');
const labelText = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field is required.')
  .max(200, 'Label must be 200 characters or less.');
const sortOrder = z
  .number({ error: 'Sort order must be a whole number.' })
  .int('Sort order must be a whole number.')
  .min(0, 'Sort order must be 0 or more.')
  .max(100000, 'Sort order must be 100000 or less.');

const nameParams = z.strictObject({ name: z.string().max(50) });

/** Inserts the built-in rows that are missing (concurrent callers: the unique index keeps one of each). */
async function ensureDefaults(db: Queryable, kind: LookupKind): Promise<void> {
  await db
    .insert(lookup)
    .values(kind.defaults.map(([name, label], i) => ({ kind: kind.kind, name, label, sortOrder: i + 1 })))
    .onConflictDoNothing();
}

async function rowsOf(db: Queryable, kind: LookupKind, activeOnly = false): Promise<Row[]> {
  return db
    .select()
    .from(lookup)
    .where(and(eq(lookup.kind, kind.kind), activeOnly ? eq(lookup.expired, false) : undefined))
    .orderBy(asc(lookup.sortOrder), asc(lookup.name));
}

/**
 * 400 at `/data/attributes/<attribute>` unless `name` is an active payment method: "Payment method
 * must be one of check, ach, wire, card." (the active ones). Call it before a posting's transaction.
 */
export async function requireActivePaymentMethod(db: Queryable, name: string, attribute = 'payment_method') {
  const kind = KINDS[0]!;
  await ensureDefaults(db, kind);
  const active = (await rowsOf(db, kind, true)).map((r) => r.name);
  if (!active.includes(name)) {
    throw attributeError(attribute, `Payment method must be one of ${active.join(', ')}.`);
  }
}

export function registerPaymentLookupRoutes(router: AtriumRouter, context: ServerPluginContext) {
  for (const kind of KINDS) registerKind(router, context, kind);
}

function registerKind(router: AtriumRouter, context: ServerPluginContext, kind: LookupKind) {
  const { db } = context;
  const base = `/${kind.path}/`;
  const resource = defineResource<Row & { inUse?: boolean }>({
    type: kind.path,
    id: (r) => r.name,
    attributes: (r) => ({ name: r.name, label: r.label, sort_order: r.sortOrder, active: !r.expired }),
  });
  let seeded = false;
  const ready = async () => {
    if (seeded) return;
    await ensureDefaults(db, kind);
    seeded = true;
  };
  const load = async (name: string) => {
    await ready();
    const [row] = await db
      .select()
      .from(lookup)
      .where(and(eq(lookup.kind, kind.kind), eq(lookup.name, name)));
    if (!row) throw new ApiError(404, `${kind.title} ${name} not found.`);
    return row;
  };
  const inUse = async (name: string) => {
    const [row] = await db
      .select({ id: ledgerTransaction.id })
      .from(ledgerTransaction)
      .where(sql`${ledgerTransaction.details} ->> ${kind.detail} = ${name}`)
      .limit(1);
    return row !== undefined;
  };

  router.get(
    base,
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: {
        summary: `The ${kind.title.toLowerCase()}s, in sort order; filter[active]=true: only the active ones.`,
        tags,
        security,
        querystring: z.strictObject({ 'filter[active]': z.enum(['true', 'false']).optional() }),
      },
    },
    async (request) => {
      await ready();
      const active = request.query['filter[active]'];
      const rows = (await rowsOf(db, kind)).filter((r) => active === undefined || r.expired === (active === 'false'));
      return serializeDocument(resource, rows, { meta: { count: rows.length } });
    },
  );

  router.get(
    `${base}:name/`,
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: { summary: `One ${kind.title.toLowerCase()}, by name.`, tags, security, params: nameParams },
    },
    async (request) => serializeDocument(resource, await load(request.params.name)),
  );

  router.post(
    base,
    {
      config: { jsonapi: true, access: claimsPermission('lookup', 'create') },
      schema: {
        summary: `Adds a ${kind.title.toLowerCase()}; its name is what payments record and never changes.`,
        tags,
        security,
        body: resourceDocument(kind.path, {
          name: nameText.optional(),
          label: labelText.optional(),
          sort_order: sortOrder.optional(),
          active: z.boolean().optional(),
        }),
      },
    },
    async (request, reply) => {
      await ready();
      const a = request.body.data.attributes ?? {};
      if (a.name === undefined) throw attributeError('name', 'This field is required.');
      if (a.label === undefined) throw attributeError('label', 'This field is required.');
      const created = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(lookup)
            .values({
              kind: kind.kind,
              name: a.name!,
              label: a.label!,
              sortOrder: a.sort_order ?? 100,
              expired: a.active === false,
            })
            .returning();
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'create',
            entityType: kind.kind,
            entityId: row!.id,
            after: row,
          });
          return row!;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) {
            throw attributeError('name', `A ${kind.title.toLowerCase()} named ${a.name} already exists.`, 409);
          }
          throw error;
        });
      reply.status(201);
      return serializeDocument(resource, created);
    },
  );

  router.patch(
    `${base}:name/`,
    {
      config: { jsonapi: true, access: claimsPermission('lookup', 'update') },
      schema: {
        summary: `Changes a ${kind.title.toLowerCase()}'s label, sort order or active flag (active: false deactivates it).`,
        tags,
        security,
        params: nameParams,
        body: resourceDocument(
          kind.path,
          {
            name: z.string().optional(),
            label: labelText.optional(),
            sort_order: sortOrder.optional(),
            active: z.boolean().optional(),
          },
          { id: 'required' },
        ),
      },
    },
    async (request) => {
      const data = request.body.data;
      if (data.id !== request.params.name) {
        throw new ApiError(409, 'The id in the body does not match the URL.', { source: { pointer: '/data/id' } });
      }
      const before = await load(request.params.name);
      const a = data.attributes ?? {};
      if (a.name !== undefined && a.name !== before.name) {
        throw attributeError('name', `The name of a ${kind.title.toLowerCase()} cannot change; payments record it.`);
      }
      const values: Partial<Row> = {};
      if (a.label !== undefined) values.label = a.label;
      if (a.sort_order !== undefined) values.sortOrder = a.sort_order;
      if (a.active !== undefined) values.expired = !a.active;
      if (Object.keys(values).length === 0) return serializeDocument(resource, before);
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx.update(lookup).set(values).where(eq(lookup.id, before.id)).returning();
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'update',
          entityType: kind.kind,
          entityId: before.id,
          before,
          after: row,
        });
        return row!;
      });
      return serializeDocument(resource, updated);
    },
  );

  router.delete(
    `${base}:name/`,
    {
      config: { jsonapi: true, access: claimsPermission('lookup', 'delete') },
      schema: {
        summary: `Deletes a ${kind.title.toLowerCase()} no transaction names (409 otherwise: deactivate it).`,
        tags,
        security,
        params: nameParams,
      },
    },
    async (request, reply) => {
      const before = await load(request.params.name);
      if (kind.defaults.some(([name]) => name === before.name)) {
        throw new ApiError(
          409,
          `${kind.title} ${before.name} is built in and cannot be deleted; deactivate it instead.`,
          {
            code: 'built_in',
          },
        );
      }
      if (await inUse(before.name)) {
        throw new ApiError(
          409,
          `${kind.title} ${before.name} is used by transactions and cannot be deleted; deactivate it instead.`,
          { code: 'in_use' },
        );
      }
      await db.transaction(async (tx) => {
        await tx.delete(lookup).where(eq(lookup.id, before.id));
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'delete',
          entityType: kind.kind,
          entityId: before.id,
          before,
        });
      });
      return reply.status(204).send();
    },
  );
}
