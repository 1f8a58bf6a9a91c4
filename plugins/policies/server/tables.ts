import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The policies module's tables (docs/policies.md), all in the `policies` schema: policies, their
 * terms, revisions and transactions, and billing (schedules, installments, invoices, payments).
 * Other modules reach them only through the typed services of shared/policy-services.ts.
 * Money is `numeric(14, 2)` (read back as decimal text), dates are ISO days.
 */
export const policiesSchema = pgSchema('policies');

/** Numbers policies: the product's prefix and this sequence (`HO-100001`, `PA-100002`). */
export const policyNumber = policiesSchema.sequence('policy_number', { startWith: 100001 });
export const invoiceNumber = policiesSchema.sequence('invoice_number', { startWith: 5001 });

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

/** Policy types and statuses are maintainable lookups (spec: create, read, update, delete). */
export const policyType = policiesSchema.table('policy_type', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  productSlug: text('product_slug'),
});

export const policyStatus = policiesSchema.table('policy_status', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
});

export const policy = policiesSchema.table(
  'policy',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    number: text('number').notNull(),
    productSlug: text('product_slug').notNull(),
    policyTypeName: text('policy_type_name').notNull(),
    state: text('state'),
    quoteId: text('quote_id'),
    quoteNumber: text('quote_number'),
    namedInsuredContactId: text('named_insured_contact_id'),
    namedInsuredName: text('named_insured_name').notNull(),
    agentContactId: text('agent_contact_id'),
    agencyContactId: text('agency_contact_id'),
    /** The status of the latest committed revision: In Force, Canceled …, Expired. */
    status: text('status').notNull(),
    /** A notice of cancellation is out (separate from canceled, spec §4). */
    cancellationPending: boolean('cancellation_pending').notNull().default(false),
    cancellationPendingDate: date('cancellation_pending_date'),
    cancellationPendingReason: text('cancellation_pending_reason'),
    /** The short rate of the product when it was issued: a factor of pro rata, or a days table. */
    shortRate: jsonb('short_rate').$type<ShortRateRule>(),
    createdBy: text('created_by').notNull().default('system'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('policy_number_key').on(table.number),
    index('policy_insured_idx').on(sql`lower(${table.namedInsuredName})`),
    index('policy_agent_idx').on(table.agentContactId),
    index('policy_agency_idx').on(table.agencyContactId),
    index('policy_created_idx').on(table.createdAt),
  ],
);

export type ShortRateRule =
  { kind: 'factor'; factor: string } | { kind: 'table'; table: { maxDays: number; retainedPercent: string }[] };

export const policyTerm = policiesSchema.table(
  'policy_term',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    effectiveDate: date('effective_date').notNull(),
    expirationDate: date('expiration_date').notNull(),
    productVersionId: text('product_version_id'),
    /** Term premium as rated at the start of the term. */
    premium: money('premium').notNull(),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('policy_term_key').on(table.policyId, table.number)],
);

export const policyRevision = policiesSchema.table(
  'policy_revision',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    termId: integer('term_id')
      .notNull()
      .references(() => policyTerm.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    /** The day the revision takes effect. */
    revisionDate: date('revision_date').notNull(),
    /** committed, pending (an out-of-sequence review), superseded. */
    revisionState: text('revision_state').notNull().default('committed'),
    /** Active, Canceled - Pro Rata, Canceled - Short Rate, Expired … */
    policyStatus: text('policy_status').notNull(),
    description: text('description').notNull().default(''),
    quoteNumber: text('quote_number'),
    productVersionId: text('product_version_id'),
    commissionRate: numeric('commission_rate', { precision: 6, scale: 4 }).notNull().default('0.1000'),
    /** The annual (full term) premium of this revision's risk. */
    annualPremium: money('annual_premium').notNull(),
    /** Premium written for the term up to and including this revision. */
    writtenPremium: money('written_premium').notNull(),
    writtenPremiumDelta: money('written_premium_delta').notNull(),
    risks: jsonb('risks'),
    worksheet: jsonb('worksheet'),
    /** Contacts on the revision (named insureds, additional interests, producers). */
    contacts: jsonb('contacts').$type<RevisionContact[]>().notNull().default([]),
    createdBy: text('created_by').notNull().default('system'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('policy_revision_key').on(table.policyId, table.number),
    index('policy_revision_term_idx').on(table.termId),
  ],
);

export interface RevisionContact {
  contactId: string | null;
  name: string;
  namedInsured: boolean;
  additionalInterest: boolean;
  agent: boolean;
  interest: string | null;
}

/** A policy transaction (spec: statuses initiated, in_progress, completed, failed). */
export const policyTransaction = policiesSchema.table(
  'policy_transaction',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    termId: integer('term_id').references(() => policyTerm.id, { onDelete: 'cascade' }),
    revisionId: integer('revision_id').references(() => policyRevision.id, { onDelete: 'set null' }),
    /** new_business, endorsement, cancellation, reinstatement, renewal. */
    type: text('type').notNull(),
    description: text('description').notNull().default(''),
    /** The day the change takes effect on the policy. */
    effectiveDate: date('effective_date').notNull(),
    status: text('status').notNull().default('initiated'),
    error: text('error'),
    reasonDismissed: text('reason_dismissed'),
    autoBind: boolean('auto_bind').notNull().default(false),
    processAsync: boolean('process_async').notNull().default(true),
    /** none, conflicts (waiting for review), resolved. */
    oosStatus: text('oos_status'),
    triggeringOosTransactionId: integer('triggering_oos_transaction_id'),
    /** What the caller asked for (changes, method, reason …) and what came out (premium figures). */
    input: jsonb('input').$type<Record<string, unknown>>().notNull().default({}),
    result: jsonb('result').$type<Record<string, unknown>>(),
    username: text('username').notNull().default('system'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('policy_transaction_policy_idx').on(table.policyId),
    index('policy_transaction_status_idx').on(table.status),
  ],
);

/** A payment plan: the share of the premium each installment carries (factors sum to 1). */
export const billingSchedule = policiesSchema.table('billing_schedule', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Null: offered for every product without schedules of its own. */
  productSlug: text('product_slug'),
  paymentMethods: jsonb('payment_methods').$type<string[]>().notNull().default([]),
  /** Decimal text per installment, e.g. ["0.25","0.25","0.25","0.25"]. */
  factors: jsonb('factors').$type<string[]>().notNull(),
  intervalMonths: integer('interval_months').notNull().default(12),
  /** Fee on each installment after the first. */
  installmentFee: money('installment_fee').notNull().default('0'),
  /** Extra fee per installment when paid by card. */
  cardFee: money('card_fee').notNull().default('0'),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const installment = policiesSchema.table(
  'installment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    termId: integer('term_id')
      .notNull()
      .references(() => policyTerm.id, { onDelete: 'cascade' }),
    scheduleId: text('schedule_id').notNull(),
    transactionId: integer('transaction_id'),
    number: integer('number').notNull(),
    dueDate: date('due_date').notNull(),
    amount: money('amount').notNull(),
    fee: money('fee').notNull().default('0'),
    /** open, invoiced, paid, canceled. */
    status: text('status').notNull().default('open'),
    invoiceId: integer('invoice_id'),
    paymentMethodId: text('payment_method_id'),
  },
  (table) => [index('installment_policy_idx').on(table.policyId)],
);

export const invoice = policiesSchema.table(
  'invoice',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    invoiceDate: date('invoice_date').notNull(),
    dueDate: date('due_date').notNull(),
    amount: money('amount').notNull(),
    /** open, paid, void. */
    status: text('status').notNull().default('open'),
    description: text('description').notNull().default(''),
  },
  (table) => [uniqueIndex('invoice_number_key').on(table.number), index('invoice_policy_idx').on(table.policyId)],
);

export const payment = policiesSchema.table(
  'payment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').references(() => invoice.id, { onDelete: 'set null' }),
    receivedOn: date('received_on').notNull(),
    amount: money('amount').notNull(),
    method: text('method').notNull(),
    reference: text('reference').notNull().default(''),
  },
  (table) => [index('payment_policy_idx').on(table.policyId)],
);

/** Policies linked to each other (a renewal rewritten under a new number, an umbrella …). */
export const linkedPolicy = policiesSchema.table(
  'linked_policy',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    linkedPolicyId: integer('linked_policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('linked_policy_key').on(table.policyId, table.linkedPolicyId)],
);
