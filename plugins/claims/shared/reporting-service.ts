import { createServiceRef, type Principal, type Queryable, type ServiceRef } from '@atrium/sdk/server';

/**
 * The claims module's reporting service (docs/reports.md): the figures the reports module shows,
 * read by claims itself so that no other module reads claims' tables. Every method takes the
 * caller's principal and answers only the claims that caller may read (`claims:claim` read and its
 * record conditions, decided in SQL as the claims list does): an agent's figures cover the agent's
 * book. A caller who may read no claim at all gets `ClaimsReportingRefused`.
 * Money crosses as decimal strings ("1234.56"), days as ISO days ("2026-11-27"). Call it with the
 * database, not inside an open transaction (the access evaluator may read the database).
 */

export interface ClaimReportFilter {
  /** Only the claims on these policy numbers. */
  policyNumbers?: string[];
  /** Date of loss from / to (ISO days, both inclusive). */
  lossFrom?: string;
  lossTo?: string;
  /** Claim statuses (open, closed, reopened …); drafts are never reported. */
  statuses?: string[];
}

export interface ClaimReportRow {
  claimId: number;
  number: string;
  status: string;
  policyNumber: string | null;
  product: string | null;
  dateOfLoss: string | null;
  reportedDate: string | null;
  lossDescription: string;
  lossState: string | null;
  primaryAdjuster: string | null;
  agentContactId: string | null;
  agencyContactId: string | null;
  /** Balances now (the claim_balance sums of the posted ledger). */
  reserveOutstanding: string;
  paid: string;
  recovered: string;
  totalIncurred: string;
}

/** One claim's posted ledger movements in a period, per reserve category. */
export interface ClaimMovementRow {
  claimId: number;
  number: string;
  policyNumber: string | null;
  reserveCategory: string;
  /** Net change of the open reserve in the period (reserve changes, erosion, closes). */
  reserveChange: string;
  paid: string;
  recovered: string;
}

/** The claims of one month of loss (UTC) and their balances summed. */
export interface MonthlyLossRow {
  /** 'YYYY-MM'. */
  month: string;
  claims: number;
  paid: string;
  reserveOutstanding: string;
  recovered: string;
  totalIncurred: string;
}

export type ClaimsReporting = {
  /** How many claims the filter matches (for progress). */
  countClaims(db: Queryable, caller: Principal, filter: ClaimReportFilter): Promise<number>;
  /** A page of claims in id order after `afterId`, with their balances. */
  claimRows(
    db: Queryable,
    caller: Principal,
    filter: ClaimReportFilter,
    page: { afterId: number; limit: number },
  ): Promise<ClaimReportRow[]>;
  /** Posted ledger movements between `from` and `to` (ISO days, inclusive) by claim and reserve category. */
  movements(
    db: Queryable,
    caller: Principal,
    filter: ClaimReportFilter & { from: string; to: string },
  ): Promise<ClaimMovementRow[]>;
  /** Claims by month of loss between `lossFrom` and `lossTo`, summed in the database (loss runs by period). */
  monthlyLosses(
    db: Queryable,
    caller: Principal,
    filter: ClaimReportFilter & { lossFrom: string; lossTo: string },
  ): Promise<MonthlyLossRow[]>;
  /** The distinct policy numbers of the claims the caller may read (for a report's policy picker). */
  policyNumbers(db: Queryable, caller: Principal): Promise<string[]>;
};

/** Thrown when the caller may read no claims at all (reports answer 403). */
export class ClaimsReportingRefused extends Error {
  constructor() {
    super('This operation is not allowed. (Error code: 403)');
    this.name = 'ClaimsReportingRefused';
  }
}

export const CLAIMS_REPORTING: ServiceRef<ClaimsReporting> = createServiceRef<ClaimsReporting>('claims.reporting');
