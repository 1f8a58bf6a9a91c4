import { createServiceRef, type Queryable, type ServiceRef } from '@atrium/sdk/server';

/**
 * The policies module's typed services. Policies owns the policy, term, revision, transaction and
 * billing tables; quote (bind, installment previews) and claims (FNOL policy lookup) call these,
 * passing their own transaction first so that their write and the policy write commit together.
 * Money crosses this boundary as decimal strings ("1234.56"), dates as ISO days ("2026-11-27").
 */

/** What bind hands to issuance: everything the first revision needs, taken from the quote. */
export interface IssuePolicyInput {
  /** The quote's id and number (kept on the policy as its origin; quote keeps no copy of the policy). */
  quoteId: string;
  quoteNumber: string;
  /** The line (product) slug and the product version the quote was rated on. */
  productSlug: string;
  productVersionId: string | null;
  /** Two-letter state of the risk, when the product is state-based. */
  state: string | null;
  effectiveDate: string;
  expirationDate: string;
  namedInsured: { contactId: string | null; name: string };
  agentContactId: string | null;
  agencyContactId: string | null;
  /** Term premium as rated (decimal string), and the rating worksheet it came from (stored as is). */
  premium: string;
  worksheet: unknown;
  /** The quote's risks (risk tree with answers), stored as the first revision's risk data. */
  risks: unknown;
  /** The billing schedule chosen in the quote, and the payment method token id if one was added. */
  billing: { scheduleId: string; paymentMethodId: string | null } | null;
  /** Username of who binds. */
  issuedBy: string;
}

export interface IssuedPolicy {
  policyId: string;
  policyNumber: string;
  revisionId: string;
  revisionNumber: number;
}

export type PolicyIssuance = {
  /** Creates policy, term, first revision (status Bound/In Force), its transaction and the installments. */
  issuePolicy(tx: Queryable, input: IssuePolicyInput): Promise<IssuedPolicy>;
};

export const POLICY_ISSUANCE: ServiceRef<PolicyIssuance> = createServiceRef<PolicyIssuance>('policies.issuance');

export interface BillingScheduleSummary {
  id: string;
  name: string;
  /** e.g. 'ach', 'card', 'check' — the payment methods the schedule accepts. */
  paymentMethods: string[];
  installmentCount: number;
}

export interface InstallmentLine {
  number: number;
  dueDate: string;
  amount: string;
  fee: string;
  total: string;
}

export interface InstallmentPreview {
  scheduleId: string;
  scheduleName: string;
  installments: InstallmentLine[];
  /** Sum of amounts (equals the premium: rounding goes on the last installment) plus fees. */
  total: string;
}

export type PolicyBilling = {
  /** Schedules offered for a product (all active ones when the product has none of its own). */
  listSchedules(tx: Queryable, query: { productSlug: string }): Promise<BillingScheduleSummary[]>;
  /** New business preview: one preview per requested schedule, for the premium from the effective date. */
  previewInstallments(
    tx: Queryable,
    query: { scheduleIds: string[]; effectiveDate: string; premium: string; paymentMethod: string | null },
  ): Promise<InstallmentPreview[]>;
};

export const POLICY_BILLING: ServiceRef<PolicyBilling> = createServiceRef<PolicyBilling>('policies.billing');

/** A policy as the claims FNOL search and other modules see it. */
export interface PolicySummary {
  policyId: string;
  policyNumber: string;
  productSlug: string;
  status: string;
  namedInsured: { contactId: string | null; name: string };
  agentContactId: string | null;
  agencyContactId: string | null;
  termEffectiveDate: string;
  termExpirationDate: string;
}

export interface PolicyAtDate extends PolicySummary {
  revisionId: string;
  revisionNumber: number;
  /** The coverages in force on the date, from the revision's risk data and worksheet. */
  coverages: { name: string; limit: string | null; deductible: string | null; premium: string | null }[];
  risks: unknown;
}

/** A committed revision as other modules list it (claims: the revisions of a policy). */
export interface RevisionSummary {
  revisionId: string;
  revisionNumber: number;
  /** The day it takes effect. */
  revisionDate: string;
  /** Active, Canceled - Pro Rata, Canceled - Short Rate, Canceled - Flat. */
  policyStatus: string;
  description: string;
  annualPremium: string;
  termNumber: number;
  termEffectiveDate: string;
  termExpirationDate: string;
}

/** A producer's book: an agent's own policies, or an agency's. */
export interface ProducerFilter {
  agentContactId?: string;
  agencyContactId?: string;
}

export type PolicyLookup = {
  /**
   * Policies whose number or named insured contains the text, newest first; with `producer`, only
   * that agent's (agency's) policies — the caller passes its user's contact for agents and agencies.
   */
  searchPolicies(
    tx: Queryable,
    query: { search: string; limit: number; producer?: ProducerFilter },
  ): Promise<PolicySummary[]>;
  /** One policy with its latest term (null when there is none). */
  getPolicy(tx: Queryable, policyId: string): Promise<PolicySummary | null>;
  /** Its committed revisions, newest first (empty when there is no such policy). */
  listRevisions(tx: Queryable, policyId: string): Promise<RevisionSummary[]>;
  /** The revision in force on the date (null when the policy was not in force then). */
  policyAtDate(tx: Queryable, policyId: string, date: string): Promise<PolicyAtDate | null>;
};

export const POLICY_LOOKUP: ServiceRef<PolicyLookup> = createServiceRef<PolicyLookup>('policies.lookup');
