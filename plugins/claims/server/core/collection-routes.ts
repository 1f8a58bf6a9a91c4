import { and, eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  ApiError,
  camelCase,
  declareResource,
  type ResourceCall,
  type ResourceDeclaration,
  type ResourceShape,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { claimAccessFilter } from './claim-access.js';
import { claimScope } from './claim-scope.js';
import { callerOf, claimsAudit, security, tags } from './http-kit.js';
import { claim } from './tables.js';

/**
 * The claims half of a generic collection's declaration (the SDK's `declareResource`): the claims
 * permission of its thing, the claims audit log, and for a table with a `claimId` column — rows of
 * claims (parties, risks, events …) — the claim's record scope: the list and every route on one row
 * see only the rows of claims the caller may read (claimScope; a hidden one is a 404 like a missing
 * one), and a row cannot be put on a claim the caller cannot read.
 */
type Thing = Parameters<typeof claimsPermission>[0];

export interface ClaimsCollection<S extends ResourceShape> {
  shape: S;
  table: PgTable;
  thing: Thing;
  /** The list's OpenAPI summary: `Lists <summary>, 250 a page.` */
  summary: string;
  /** Column values every row has (a lookup's kind); hidden from clients. */
  fixed?: Record<string, unknown>;
  /** Column keys never shown. */
  hidden?: string[];
  /** An attribute whose uniqueness violation is reported on its pointer. */
  uniqueAttribute?: string;
  /** A column the server sets to the caller on create (never taken from the client). */
  createdByColumn?: string;
}

/** Keeps the rows whose claim the caller may read (undefined: no claim column or no record condition). */
const claimRowScope = (column: PgColumn) => async (call: ResourceCall) =>
  claimScope(call.context, call.request, column);

/**
 * A claim named on a write must be one the caller may read. Asked before the transaction (the
 * evaluator may read the database); a hidden claim and a missing one get the same answer.
 */
const requireReadableClaim = (pointer: string) => async (values: Record<string, unknown>, call: ResourceCall) => {
  const claimId = values.claimId;
  if (typeof claimId !== 'number') return;
  const readable = await claimAccessFilter(call.context, call.request, 'read');
  if (!readable) return;
  const [found] = await call.context.db
    .select({ id: claim.id })
    .from(claim)
    .where(and(eq(claim.id, claimId), readable))
    .limit(1);
  if (!found) throw new ApiError(400, `Claim ${claimId} not found.`, { source: { pointer } });
};

export function claimsCollection<S extends ResourceShape>(options: ClaimsCollection<S>): ResourceDeclaration<S> {
  const { shape } = options;
  const claimColumn = (getTableColumns(options.table) as Record<string, PgColumn>).claimId;
  const claimRelationship = Object.entries(shape.relationships ?? {}).find(
    ([name, rel]) => (rel.column ?? camelCase(`${name}_id`)) === 'claimId',
  );
  const pointer = claimRelationship
    ? `/data/relationships/${claimRelationship[0]}/data/id`
    : '/data/attributes/claim_id';
  return declareResource({
    shape,
    table: options.table,
    permission: { resource: claimsPermission(options.thing, 'read').resource },
    scope: claimColumn ? claimRowScope(claimColumn) : undefined,
    fixed: options.fixed,
    hidden: options.hidden,
    hooks:
      claimColumn || options.createdByColumn
        ? {
            validate: async (values, call) => {
              if (options.createdByColumn && call.action === 'create') {
                values[options.createdByColumn] = callerOf(call.request);
              }
              if (claimColumn) await requireReadableClaim(pointer)(values, call);
            },
          }
        : undefined,
    messages: options.uniqueAttribute ? { unique: { attribute: options.uniqueAttribute } } : undefined,
    audit: claimsAudit.forResource((entry) => ({
      claimId: ((entry.before ?? entry.after)?.claimId as number | null | undefined) ?? null,
    })),
    openapi: { summary: options.summary, tags, security },
  });
}

/**
 * Ties declarations to each other by type, so that `include=` of a relationship whose type is
 * declared here loads it (with that type's own permission and scope).
 */
export function relateByType(declarations: ResourceDeclaration<any>[]): ResourceDeclaration<any>[] {
  const byType = new Map(declarations.map((d) => [d.shape.type as string, d]));
  for (const declaration of declarations) {
    const related: Record<string, () => ResourceDeclaration<any>> = { ...declaration.related };
    for (const [name, rel] of Object.entries((declaration.shape as ResourceShape).relationships ?? {})) {
      const target = byType.get(rel.type);
      if (target && !related[name]) related[name] = () => target;
    }
    declaration.related = related;
  }
  return declarations;
}
