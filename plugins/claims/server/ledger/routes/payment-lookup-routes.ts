import { and, asc, eq, sql } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  declareResource,
  registerResources,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { lookup } from '../../core/tables.js';
import { claimsAudit } from '../../core/http-kit.js';
import { claimsPermission } from '../../permissions.js';
import { payCodeShape, paymentMethodShape } from '../../../shared/collections.js';
import { ledgerTransaction } from '../tables.js';
import { PAYMENT_METHODS } from './schemas.js';

/**
 * payment-methods/ and pay-codes/ (docs/claims-accounting.md, "Payment methods and pay codes"): the
 * lists claims finance maintains, each declared once (shared half in shared/collections.ts). Each
 * starts with the built-in rows (methods check, ach, wire, card; pay codes loss, expense), kept in
 * the lookup table (kinds `payment-method`, `pay-code`). A row's name is its id and what payments
 * record, so it never changes; a built-in row or one a transaction names is deactivated (`active:
 * false`), never deleted (409). A payment names an active payment method. Lists page like every
 * JSON:API collection (`page[number]`/`page[size]`), which the shared list client sends.
 */
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
  registerResources(router, context, KINDS.map(declarationOf));
}

function declarationOf(kind: LookupKind) {
  const shape = kind.path === 'payment-methods' ? paymentMethodShape : payCodeShape;
  const noun = kind.title.toLowerCase();
  const inUse = async (db: Queryable, name: string) => {
    const [row] = await db
      .select({ id: ledgerTransaction.id })
      .from(ledgerTransaction)
      .where(sql`${ledgerTransaction.details} ->> ${kind.detail} = ${name}`)
      .limit(1);
    return row !== undefined;
  };
  return declareResource({
    shape,
    table: lookup,
    id: { column: 'name', kind: 'text', maxLength: 50 },
    // Read with the ledger (payments name them), maintained as lookups.
    permission: { resource: 'claims:lookup', actions: { read: claimsPermission('transaction', 'read') } },
    fixed: { kind: kind.kind },
    selfLinks: false,
    present: (r) => ({ name: r.name, label: r.label, sort_order: r.sortOrder, active: !r.expired }),
    // A change may repeat the name (the form sends it); validate refuses another one.
    updateAttributes: {
      ...Object.fromEntries(Object.entries(shape.attributes).map(([key, schema]) => [key, schema.optional()])),
      name: z.string().optional(),
    },
    toColumns: (a, action) => {
      const values: Record<string, unknown> = {};
      if (a.name !== undefined) values.name = a.name;
      if (a.label !== undefined) values.label = a.label;
      if (action === 'create' || a.sort_order !== undefined) values.sortOrder = a.sort_order ?? 100;
      if (action === 'create' || a.active !== undefined) values.expired = a.active === false;
      return values;
    },
    hooks: {
      prepare: (db) => ensureDefaults(db, kind),
      async validate(values, call) {
        if (call.action !== 'update' || values.name === undefined) return;
        const before = (await call.before())!;
        if (values.name !== before.name) {
          throw attributeError('name', `The name of a ${noun} cannot change; payments record it.`);
        }
        delete values.name; // the same name: nothing to write
      },
      async beforeDelete(row, call) {
        if (kind.defaults.some(([name]) => name === row.name)) {
          throw new ApiError(
            409,
            `${kind.title} ${row.name} is built in and cannot be deleted; deactivate it instead.`,
            {
              code: 'built_in',
            },
          );
        }
        if (await inUse(call.context.db, row.name as string)) {
          throw new ApiError(
            409,
            `${kind.title} ${row.name} is used by transactions and cannot be deleted; deactivate it instead.`,
            { code: 'in_use' },
          );
        }
      },
    },
    messages: {
      notFound: (name) => `${kind.title} ${name} not found.`,
      idMismatch: () => 'The id in the body does not match the URL.',
      unique: { attribute: 'name', status: 409, detail: (v) => `A ${noun} named ${String(v.name)} already exists.` },
    },
    audit: claimsAudit.forResource((entry) => ({
      entityType: kind.kind,
      entityId: (entry.before ?? entry.after)!.id as number,
    })),
    openapi: {
      summary: `${noun}s`,
      tags: ['claims', 'claims-ledger'],
      summaries: {
        list: `The ${noun}s, in sort order; filter[active]=true: only the active ones.`,
        find: `One ${noun}, by name.`,
        create: `Adds a ${noun}; its name is what payments record and never changes.`,
        update: `Changes a ${noun}'s label, sort order or active flag (active: false deactivates it).`,
        delete: `Deletes a ${noun} no transaction names (409 otherwise: deactivate it).`,
      },
    },
  });
}
