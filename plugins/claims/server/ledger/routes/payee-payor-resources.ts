import { and, eq } from 'drizzle-orm';
import {
  ApiError,
  declareResource,
  registerResources,
  z,
  type AtriumRouter,
  type Queryable,
  type ResourceCall,
  type ResourceDeclaration,
  type ResourceRow,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { camelCase, defineResourceShape } from '@atrium/sdk/shared';
import { claimAccessFilter } from '../../core/claim-access.js';
import { claim, party } from '../../core/tables.js';
import { ledgerTransaction, payee, payor } from '../tables.js';
import { idParams } from './schemas.js';

/**
 * payees/ (who payments go to) and payors/ (who recoveries come from), each declared once: reference
 * data, not ledger rows — they may be changed; one named by a posted transaction cannot be deleted
 * (409). Listed in name order; filter[name] matches part of the name. A payee can be made from a
 * claim party the caller may read: its one payee row, found (200) or made (201), named after it.
 */
const name = z.string().trim().min(1, 'This field may not be blank.').max(200);
const email = z.email().nullable().optional();
const address = z.string().max(500).optional();

const ledgerShape = <const S extends { type: 'payees' | 'payors'; attributes: Record<string, z.ZodType> }>(s: S) =>
  defineResourceShape({
    ...s,
    path: `/claims/${s.type}/`,
    style: 'jsonapi',
    filters: { name: { kind: 'search' } },
    orderings: ['name'],
    pageSize: 250,
  });

const payeeShape = ledgerShape({
  type: 'payees',
  attributes: {
    // Not required with party_id (the party names it); otherwise validate asks for it.
    name: name.optional(),
    payee_type: z.enum(['person', 'company', 'vendor', 'attorney']).optional(),
    tax_id: z.string().max(30).nullable().optional(),
    email,
    address,
    party_id: z.number().int().min(1).max(2147483647).optional(),
  },
});
const payorShape = ledgerShape({
  type: 'payors',
  attributes: {
    name,
    payor_type: z.enum(['insurer', 'person', 'company', 'salvage_buyer']).optional(),
    email,
    address,
  },
});

const required = (attribute: string) =>
  new ApiError(400, 'This field is required.', {
    source: { pointer: `/data/attributes/${attribute}` },
    code: 'required',
  });

/** The caller's claim party a payee is made for: 400 at party_id unless they may read its claim. */
async function partyOf(call: ResourceCall, partyId: number) {
  const readable = await claimAccessFilter(call.context, call.request, 'read');
  const [named] = await call.context.db
    .select({ id: party.id, name: party.name })
    .from(party)
    .innerJoin(claim, eq(claim.id, party.claimId))
    .where(and(eq(party.id, partyId), readable))
    .limit(1);
  if (!named) {
    throw new ApiError(400, `Party ${partyId} not found.`, { source: { pointer: '/data/attributes/party_id' } });
  }
  return named;
}

/** A party's one payee row: made, or found when it exists (also when a concurrent call made it). */
async function payeeOfParty(tx: Queryable, values: { name: string; partyId: number }) {
  const [inserted] = await tx.insert(payee).values(values).onConflictDoNothing({ target: payee.partyId }).returning();
  if (inserted) return { row: inserted, created: true };
  const [existing] = await tx.select().from(payee).where(eq(payee.partyId, values.partyId));
  return { row: existing!, created: false };
}

/** Is the row named by a transaction of this type (payments list payee_ids, recoveries a payor_id)? */
async function namedBy(db: Queryable, type: 'payment' | 'recovery', id: number) {
  const rows = await db
    .select({ details: ledgerTransaction.details })
    .from(ledgerTransaction)
    .where(eq(ledgerTransaction.type, type));
  return rows.some((r) =>
    type === 'payment' ? ((r.details.payee_ids as number[] | undefined) ?? []).includes(id) : r.details.payor_id === id,
  );
}

function ledgerDeclaration(
  shape: typeof payeeShape | typeof payorShape,
  table: typeof payee | typeof payor,
  options: {
    label: 'Payee' | 'Payor';
    thing: 'payment' | 'recovery';
    present: (row: ResourceRow) => Record<string, unknown>;
    hooks?: ResourceDeclaration['hooks'];
    createSummary: string;
  },
) {
  const noun = options.label.toLowerCase();
  return declareResource({
    shape,
    table,
    id: { column: 'id', kind: 'integer', schema: idParams.shape.id },
    permission: { resource: `claims:${options.thing}` },
    omitEmptyRelationships: true,
    present: options.present,
    // party_id picks the party (validate); it is never written by a change.
    toColumns: (a, action) => {
      const { party_id: partyId, ...rest } = a;
      const values: ResourceRow = Object.fromEntries(
        Object.entries(rest).map(([key, value]) => [camelCase(key), value]),
      );
      if (action === 'create' && partyId !== undefined) values.partyId = partyId;
      return values;
    },
    hooks: {
      ...options.hooks,
      async beforeDelete(row, call) {
        if (await namedBy(call.context.db, options.thing, row.id as number)) {
          throw new ApiError(
            409,
            `${options.label} ${row.id} is named by a ledger transaction and cannot be deleted.`,
            { code: 'in_use' },
          );
        }
      },
    },
    messages: {
      notFound: (id) => `${options.label} ${id} not found.`,
      idMismatch: () => 'The id in the body does not match the URL.',
      requiredCode: 'required',
    },
    openapi: {
      summary: shape.type,
      tags: ['claims', 'claims-ledger'],
      summaries: {
        list: `Lists ${shape.type} in name order; filter[name] matches part of the name.`,
        find: `One ${noun}.`,
        create: options.createSummary,
        update: `Changes a ${noun}.`,
        delete: `Deletes a ${noun} no transaction names.`,
      },
    },
  });
}

const payees = ledgerDeclaration(payeeShape, payee, {
  label: 'Payee',
  thing: 'payment',
  present: (r) => ({
    name: r.name,
    payee_type: r.payeeType,
    tax_id: r.taxId,
    email: r.email,
    address: r.address,
    party_id: r.partyId,
  }),
  createSummary:
    'Creates a payee (name required); with party_id, the payee of that claim party (found, 200, or made, 201).',
  hooks: {
    async validate(values, call) {
      if (call.action !== 'create') return;
      if (values.partyId === undefined) {
        if (values.name === undefined) throw required('name');
        return;
      }
      // A claim's party as payee: named after the party; the other attributes are not taken.
      const named = await partyOf(call, values.partyId as number);
      for (const key of Object.keys(values)) delete values[key];
      Object.assign(values, { name: named.name, partyId: named.id });
    },
    insert: async (tx, values) =>
      values.partyId === undefined
        ? {
            row: (
              await tx
                .insert(payee)
                .values(values as typeof payee.$inferInsert)
                .returning()
            )[0]!,
            created: true,
          }
        : payeeOfParty(tx, values as { name: string; partyId: number }),
  },
});

const payors = ledgerDeclaration(payorShape, payor, {
  label: 'Payor',
  thing: 'recovery',
  present: (r) => ({ name: r.name, payor_type: r.payorType, email: r.email, address: r.address }),
  createSummary: 'Creates a payor (name required).',
});

export function registerPayeePayorRoutes(router: AtriumRouter, context: ServerPluginContext) {
  registerResources(router, context, [payees, payors]);
}
