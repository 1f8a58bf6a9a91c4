import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The quote module's tables (docs/quote.md), all in the `quote` schema: quotes, their risk tree and
 * items, status history, underwriting issues, alerts, attachment metadata and payment method tokens.
 * The policy a bound quote became lives in the policies module (quote keeps its id and number only,
 * as a reference to show and link).
 */
export const quoteSchema = pgSchema('quote');

/** Numbers quotes: `Q-100001`, `Q-100002` … */
export const quoteNumberSeq = quoteSchema.sequence('quote_number', { startWith: 100001 });

export interface NamedInsured {
  contactId: string | null;
  name: string;
}

export const quote = quoteSchema.table(
  'quote',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull(),
    /** The lines product (its name, e.g. `homeowners`) and its label when the quote was created. */
    productName: text('product_name').notNull(),
    productLabel: text('product_label').notNull(),
    /** The product version the quote was last rated on (the one in force at the effective date); null until rated. */
    productVersionId: integer('product_version_id'),
    productVersionLabel: text('product_version_label').notNull().default(''),
    /** In Progress, In Review, Approved, Declined, Abandoned. */
    status: text('status').notNull().default('In Progress'),
    transactionType: text('transaction_type').notNull().default('new_business'),
    effectiveDate: date('effective_date').notNull(),
    expirationDate: date('expiration_date').notNull(),
    /** Two-letter state of the risk, when known. */
    state: text('state'),
    premiumTerm: numeric('premium_term', { precision: 14, scale: 2 }),
    premiumProRata: numeric('premium_pro_rata', { precision: 14, scale: 2 }),
    worksheet: jsonb('worksheet'),
    lastRatedAt: timestamp('last_rated_at', { withTimezone: true }),
    /** The rating before the last one (premium and worksheet), for the re-rate's difference. */
    previousPremiumTerm: numeric('previous_premium_term', { precision: 14, scale: 2 }),
    previousWorksheet: jsonb('previous_worksheet'),
    previousRatedAt: timestamp('previous_rated_at', { withTimezone: true }),
    /** An edit after the last rating: the premium shown is not the current one. */
    ratingStale: boolean('rating_stale').notNull().default(false),
    isBound: boolean('is_bound').notNull().default(false),
    isBinding: boolean('is_binding').notNull().default(false),
    locked: boolean('locked').notNull().default(false),
    namedInsureds: jsonb('named_insureds').$type<NamedInsured[]>().notNull().default([]),
    agentContactId: text('agent_contact_id'),
    agencyContactId: text('agency_contact_id'),
    /** Username of who owns (works) the quote. */
    owner: text('owner').notNull(),
    /** The chosen billing schedule (policies' schedule id) and the payment method token row. */
    billingScheduleId: text('billing_schedule_id'),
    paymentMethodId: integer('payment_method_id'),
    /** The policy bind created (policies module's ids; quote keeps no copy of the policy). */
    policyId: text('policy_id'),
    policyNumber: text('policy_number'),
    sourcePolicyId: text('source_policy_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('quote_number_key').on(t.number),
    index('quote_agent_idx').on(t.agentContactId),
    index('quote_agency_idx').on(t.agencyContactId),
    index('quote_status_idx').on(t.status, t.updatedAt),
  ],
);

/** A risk of a quote: the root (parent null) and its children, answers by field name. */
export const risk = quoteSchema.table(
  'risk',
  {
    id: serial('id').primaryKey(),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quote.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id'),
    riskType: text('risk_type').notNull(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull().default({}),
    locked: boolean('locked').notNull().default(false),
    generatedBy: text('generated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('risk_quote_idx').on(t.quoteId)],
);

/** A coverage item of a risk, with its limit and deductible (decimal strings). */
export const item = quoteSchema.table(
  'item',
  {
    id: serial('id').primaryKey(),
    riskId: integer('risk_id')
      .notNull()
      .references(() => risk.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    limit: numeric('limit', { precision: 14, scale: 2 }),
    deductible: numeric('deductible', { precision: 14, scale: 2 }),
    limits: jsonb('limits').$type<Record<string, string>>().notNull().default({}),
  },
  (t) => [uniqueIndex('item_risk_name_key').on(t.riskId, t.name)],
);

export const statusHistory = quoteSchema.table(
  'status_history',
  {
    id: serial('id').primaryKey(),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quote.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    trigger: text('trigger').notNull(),
    reason: text('reason'),
    changedBy: text('changed_by').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('status_history_quote_idx').on(t.quoteId)],
);

/** Underwriting issues raised by the rules: open until an authority approves or rejects them. */
export const underwritingIssue = quoteSchema.table(
  'underwriting_issue',
  {
    id: serial('id').primaryKey(),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quote.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    severity: text('severity').notNull(),
    /** rate, submit, bind or none. */
    blocking: text('blocking').notNull(),
    message: text('message').notNull(),
    rule: text('rule').notNull().default(''),
    risk: text('risk').notNull().default(''),
    /** open, approved, rejected. */
    status: text('status').notNull().default('open'),
    /** The role that may clear it. */
    authority: text('authority').notNull().default('Underwriter'),
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('issue_quote_code_risk_key').on(t.quoteId, t.code, t.risk), index('issue_open_idx').on(t.status)],
);

/** Alerts shown on a quote (status alerts); deleting one dismisses it. */
export const alert = quoteSchema.table(
  'alert',
  {
    id: serial('id').primaryKey(),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quote.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_quote_idx').on(t.quoteId)],
);

/** Attachment metadata (bytes in object storage under `storageKey`). */
export const attachment = quoteSchema.table(
  'attachment',
  {
    id: serial('id').primaryKey(),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quote.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    source: text('source').notNull().default('upload'),
    storageKey: text('storage_key').notNull(),
    uploaded: boolean('uploaded').notNull().default(false),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('attachment_quote_idx').on(t.quoteId)],
);

/** A payment method as the processor tokenised it: never a card or account number. */
export const paymentMethod = quoteSchema.table(
  'payment_method',
  {
    id: serial('id').primaryKey(),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quote.id, { onDelete: 'cascade' }),
    processor: text('processor').notNull(),
    token: text('token').notNull(),
    /** card, ach. */
    type: text('type').notNull(),
    last4: text('last4').notNull(),
    /** MM/YY for cards, null for bank accounts. */
    expiry: text('expiry'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_method_quote_idx').on(t.quoteId)],
);

/** The module's settings by key (`quote/abandon-after-days`), JSON values; absent: the default. */
export const setting = quoteSchema.table('setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The quote's audit log (SDK `defineAuditLog`, plugin-change-audit.ts): today the risk changes a
 * third-party UI plugin made for a user (issue 22), with the plugin, its JSON Patch and the answers
 * before and after. Quote keeps no field-level history of a user's own edits.
 */
export const auditEntry = quoteSchema.table(
  'audit_entry',
  {
    id: serial('id').primaryKey(),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quote.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    /** `create-risk`, `update-risk`, `remove-risk`. */
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    /** The risk type's name (what was added, changed or removed). */
    riskType: text('risk_type'),
    pluginId: text('plugin_id'),
    /** The plugin's name when it acted (the record may be renamed or removed later). */
    pluginName: text('plugin_name'),
    /** The RFC 6902 patch the plugin sent, as it sent it. */
    patch: jsonb('patch'),
    /** The changed answers only, before and after, as the server saved them. */
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_entry_quote_idx').on(t.quoteId)],
);

export const quoteTables = {
  quote,
  risk,
  item,
  statusHistory,
  underwritingIssue,
  alert,
  attachment,
  paymentMethod,
  setting,
  auditEntry,
};
