import type { FastifyRequest } from 'fastify';
import { inArray, isNull, notInArray, or, type Column, type SQL } from 'drizzle-orm';
import type { ServerPluginContext } from '@atrium/sdk/server';
import { claimAccessFilter } from './claim-access.js';
import { claim, exposure } from './tables.js';

/**
 * Rows that hang off a claim (its assignments, parties, events, ledger transactions, audit entries …)
 * are visible exactly when their claim is: a caller whose policies let them read only some claims
 * sees only those claims' rows, in lists (their counts and pages) and by id (404 otherwise, as for a
 * missing row). Decided in the database — one semi-join on the claim with the claims list's own
 * record filter (claimAccessFilter), never an evaluator call per row.
 *
 * Each function answers the condition to AND into the query, or undefined when the caller's
 * policies put no record condition on claims (nothing to add). Ask for it before a transaction opens:
 * the evaluator may read the database (see loadClaimFor).
 */

/**
 * `column in (the ids of the claims the caller may read)`; undefined: every claim. (The subquery is
 * built here and not handed out of an async function: a query builder is thenable, awaiting it would
 * run it.)
 */
async function inReadableClaims(
  context: ServerPluginContext,
  request: FastifyRequest,
  column: Column,
): Promise<SQL | undefined> {
  const filter = await claimAccessFilter(context, request, 'read');
  if (!filter) return undefined;
  return inArray(column, context.db.select({ id: claim.id }).from(claim).where(filter));
}

/**
 * Keeps the rows whose `claimId` is a claim the caller may read. `nullable`: rows without a claim
 * (audit entries of lookups, products …) are not about any claim and stay.
 */
export async function claimScope(
  context: ServerPluginContext,
  request: FastifyRequest,
  claimId: Column,
  options: { nullable?: boolean } = {},
): Promise<SQL | undefined> {
  const readable = await inReadableClaims(context, request, claimId);
  if (!readable) return undefined;
  return options.nullable ? or(isNull(claimId), readable) : readable;
}

/** Keeps the rows whose `exposureId` is an exposure of a claim the caller may read. */
export async function exposureClaimScope(
  context: ServerPluginContext,
  request: FastifyRequest,
  exposureId: Column,
): Promise<SQL | undefined> {
  const readable = await inReadableClaims(context, request, exposure.claimId);
  if (!readable) return undefined;
  return inArray(exposureId, context.db.select({ id: exposure.id }).from(exposure).where(readable));
}

/**
 * Keeps the rows whose text `claimNumber` names a claim the caller may read (attachment folders name
 * their claim by number in reference_id). A reference that names no claim at all is not about one
 * and stays (claim numbers are never NULL, so `not in` is safe).
 */
export async function claimNumberScope(
  context: ServerPluginContext,
  request: FastifyRequest,
  claimNumber: Column,
): Promise<SQL | undefined> {
  const filter = await claimAccessFilter(context, request, 'read');
  if (!filter) return undefined;
  const numbers = (where?: SQL) => context.db.select({ number: claim.number }).from(claim).where(where);
  return or(inArray(claimNumber, numbers(filter)), notInArray(claimNumber, numbers()));
}
