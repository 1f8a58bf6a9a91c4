import { and, asc, count, eq, gt, gte, inArray, isNotNull, lt, ne, sql, type Column, type SQL } from 'drizzle-orm';
import {
  provideService,
  recordFilterToSql,
  type Principal,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import {
  CLAIMS_REPORTING,
  ClaimsReportingRefused,
  type ClaimReportFilter,
  type ClaimsReporting,
} from '../shared/reporting-service.js';
import { claimAccessColumns } from './core/claim-access.js';
import { claim, claimBalance, ledgerEntry, location, policyRevision, product } from './tables.js';
import { claimsPermission } from './permissions.js';

/**
 * The claims reporting service (shared/reporting-service.ts): claims and their ledger figures for
 * the reports module, within the caller's record scope (the claims list's record filter, compiled
 * to SQL by claimAccessColumns), so reports never read claims' tables.
 */

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
const isoDay = (value: Date | null) => (value ? value.toISOString().slice(0, 10) : null);

async function readableClaims(context: ServerPluginContext, caller: Principal): Promise<SQL | undefined> {
  const evaluator = context.services.evaluator;
  if (!evaluator) throw new ClaimsReportingRefused();
  if (!evaluator.recordFilter) {
    const evaluation = await evaluator.evaluate(caller, claimsPermission('claim', 'read'));
    if (!evaluation.allowed) throw new ClaimsReportingRefused();
    return undefined;
  }
  const filter = await evaluator.recordFilter(caller, claimsPermission('claim', 'read'));
  if (filter === false || filter === null) throw new ClaimsReportingRefused();
  if (filter === true) return undefined;
  return recordFilterToSql(filter, claimAccessColumns);
}

function conditions(filter: ClaimReportFilter): SQL[] {
  const parts: SQL[] = [ne(claim.status, 'draft')];
  if (filter.policyNumbers)
    parts.push(inArray(claim.policyNumber, filter.policyNumbers.length ? filter.policyNumbers : ['']));
  if (filter.lossFrom) parts.push(gte(claim.dateOfLoss, new Date(`${filter.lossFrom}T00:00:00Z`)));
  if (filter.lossTo) parts.push(lt(claim.dateOfLoss, new Date(nextDay(filter.lossTo))));
  if (filter.statuses?.length) parts.push(inArray(claim.status, filter.statuses));
  return parts;
}

/** The producers as claimAccessColumns sees them: copied from a policies-module policy, else the mock revision's. */
const producer = (copied: Column, column: Column) =>
  sql<
    string | null
  >`coalesce(${copied}, (select ${column} from ${policyRevision} where ${policyRevision.id} = ${claim.policyRevisionId}))`;

export function claimsReportingService(context: ServerPluginContext): ClaimsReporting {
  return {
    async countClaims(db: Queryable, caller, filter) {
      const scope = await readableClaims(context, caller);
      const [row] = await db
        .select({ n: count() })
        .from(claim)
        .where(and(...conditions(filter), scope));
      return Number(row?.n ?? 0);
    },
    async claimRows(db, caller, filter, page) {
      const scope = await readableClaims(context, caller);
      const rows = await db
        .select({
          claimId: claim.id,
          number: claim.number,
          status: claim.status,
          policyNumber: claim.policyNumber,
          product: product.label,
          dateOfLoss: claim.dateOfLoss,
          reportedDate: claim.reportedDate,
          lossDescription: claim.lossDescription,
          lossState: location.state,
          primaryAdjuster: claim.primaryAdjuster,
          agentContactId: producer(claim.policyAgentContactId, policyRevision.agentContactId),
          agencyContactId: producer(claim.policyAgencyContactId, policyRevision.agencyContactId),
          reserveOutstanding: claimBalance.reserveOutstanding,
          paid: claimBalance.paid,
          recovered: claimBalance.recovered,
          totalIncurred: claimBalance.totalIncurred,
        })
        .from(claim)
        .leftJoin(product, eq(product.id, claim.productId))
        .leftJoin(location, eq(location.id, claim.lossLocationId))
        .leftJoin(claimBalance, eq(claimBalance.claimId, claim.id))
        .where(and(...conditions(filter), gt(claim.id, page.afterId), scope))
        .orderBy(asc(claim.id))
        .limit(Math.min(Math.max(page.limit, 1), 10_000));
      return rows.map((row) => ({
        ...row,
        dateOfLoss: isoDay(row.dateOfLoss),
        reportedDate: isoDay(row.reportedDate),
        lossState: row.lossState || null,
        reserveOutstanding: row.reserveOutstanding ?? '0.00',
        paid: row.paid ?? '0.00',
        recovered: row.recovered ?? '0.00',
        totalIncurred: row.totalIncurred ?? '0.00',
      }));
    },
    async movements(db, caller, filter) {
      const scope = await readableClaims(context, caller);
      const sum = (kinds: string[]) =>
        sql<string>`coalesce(sum(${ledgerEntry.amount}) filter (where ${inArray(ledgerEntry.kind, kinds)}), 0)::numeric(14, 2)::text`;
      return db
        .select({
          claimId: claim.id,
          number: claim.number,
          policyNumber: claim.policyNumber,
          reserveCategory: ledgerEntry.reserveCategory,
          reserveChange: sum(['reserve_change', 'reserve_erosion', 'reserve_close']),
          paid: sum(['payment']),
          recovered: sum(['recovery']),
        })
        .from(ledgerEntry)
        .innerJoin(claim, eq(claim.id, ledgerEntry.claimId))
        .where(
          and(
            ...conditions(filter),
            gte(ledgerEntry.postedAt, new Date(`${filter.from}T00:00:00Z`)),
            lt(ledgerEntry.postedAt, new Date(nextDay(filter.to))),
            scope,
          ),
        )
        .groupBy(claim.id, claim.number, claim.policyNumber, ledgerEntry.reserveCategory)
        .orderBy(asc(claim.number), asc(ledgerEntry.reserveCategory));
    },
    async monthlyLosses(db, caller, filter) {
      const scope = await readableClaims(context, caller);
      const month = sql<string>`to_char(${claim.dateOfLoss} at time zone 'UTC', 'YYYY-MM')`;
      const sum = (column: Column) => sql<string>`coalesce(sum(${column}), 0)::numeric(16, 2)::text`;
      return db
        .select({
          month,
          claims: sql<number>`count(*)::int`,
          paid: sum(claimBalance.paid),
          reserveOutstanding: sum(claimBalance.reserveOutstanding),
          recovered: sum(claimBalance.recovered),
          totalIncurred: sum(claimBalance.totalIncurred),
        })
        .from(claim)
        .leftJoin(claimBalance, eq(claimBalance.claimId, claim.id))
        .where(and(...conditions(filter), scope))
        .groupBy(month)
        .orderBy(month);
    },
    async policyNumbers(db, caller) {
      const scope = await readableClaims(context, caller);
      const rows = await db
        .select({ policyNumber: claim.policyNumber })
        .from(claim)
        .where(and(ne(claim.status, 'draft'), isNotNull(claim.policyNumber), scope))
        .groupBy(claim.policyNumber)
        .orderBy(asc(claim.policyNumber))
        .limit(5000);
      return rows.map((row) => row.policyNumber!);
    },
  };
}

export const claimsReporting = provideService(CLAIMS_REPORTING, claimsReportingService);
