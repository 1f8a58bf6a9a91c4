import { createServiceRef, type Principal, type Queryable, type ServiceRef } from '@atrium/sdk/server';

/**
 * The policies module's reporting service (docs/reports.md): premium and billing figures for the
 * reports module and the agent portal's Payments page, read by policies itself so no other module
 * reads its tables. Every method takes the caller's principal and answers only the policies that
 * caller may read (the same scope as the policies list: record conditions on `policies:policy`,
 * and an agent's or agency's own book). A caller who may not read them gets
 * `PolicyReportingRefused`. Money crosses as decimal strings, days as ISO days. Call it with the
 * database, not inside an open transaction (the access evaluator may read the database).
 */

export interface PremiumReportFilter {
  /** The period, ISO days, both inclusive. */
  from: string;
  to: string;
  productSlug?: string;
  policyNumbers?: string[];
}

/** One policy term that overlaps the period. */
export interface PremiumReportRow {
  policyId: string;
  policyNumber: string;
  productSlug: string;
  product: string;
  namedInsured: string;
  agentContactId: string | null;
  agencyContactId: string | null;
  status: string;
  termNumber: number;
  termEffectiveDate: string;
  termExpirationDate: string;
  /**
   * Premium written in the period: the written-premium changes of the term's revisions (new
   * business, endorsements, cancellations, reinstatements, renewals) whose revision date is in it.
   */
  writtenPremium: string;
  /** Premium earned in the period: earned by the day after `to` less earned by `from` (premium.ts). */
  earnedPremium: string;
  /** Commission on the written premium: each change × its revision's commission rate. */
  commission: string;
}

export interface BookPolicy {
  policyId: string;
  policyNumber: string;
  product: string;
  namedInsured: string;
  status: string;
}

export interface InvoiceRow {
  policyNumber: string;
  number: string;
  invoiceDate: string;
  dueDate: string;
  amount: string;
  /** open, paid, void. */
  status: string;
  description: string;
}

export interface PaymentRow {
  policyNumber: string;
  invoiceNumber: string | null;
  receivedOn: string;
  amount: string;
  /** ach, card, check … */
  method: string;
  reference: string;
}

export type PolicyReporting = {
  premium(db: Queryable, caller: Principal, filter: PremiumReportFilter): Promise<PremiumReportRow[]>;
  /** The caller's policies (for a report's policy picker), by number. */
  policies(db: Queryable, caller: Principal): Promise<BookPolicy[]>;
  /** Invoices and payments received of the caller's policies (`policies:billing` read), newest first. */
  billing(
    db: Queryable,
    caller: Principal,
    filter: { policyNumbers?: string[] },
  ): Promise<{ invoices: InvoiceRow[]; payments: PaymentRow[] }>;
};

/** Thrown when the caller may not read policies (or their billing): reports answer 403. */
export class PolicyReportingRefused extends Error {
  constructor() {
    super('This operation is not allowed. (Error code: 403)');
    this.name = 'PolicyReportingRefused';
  }
}

export const POLICY_REPORTING: ServiceRef<PolicyReporting> = createServiceRef<PolicyReporting>('policies.reporting');
