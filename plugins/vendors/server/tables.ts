import { integer, jsonb, numeric, pgSchema, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The vendors module's tables, all in its own Postgres schema (the plugin's `dbSchema`). */
export const vendorsSchema = pgSchema('vendors');

/**
 * One row per vendor (`quickbooks`, `docusign`): the administrator's app credentials, the
 * environment (sandbox or production) and, once connected, the tokens. Every secret is sealed with
 * the platform's secrets service bound to the vendor (docs/security.md), so a copied row or a dump
 * yields nothing that works at the vendor.
 */
export const connection = vendorsSchema.table('connection', {
  vendor: text('vendor').primaryKey(),
  environment: text('environment').notNull().default('sandbox'),
  clientId: text('client_id'),
  clientSecretSealed: text('client_secret_sealed'),
  accessTokenSealed: text('access_token_sealed'),
  refreshTokenSealed: text('refresh_token_sealed'),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
  refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }),
  /** QuickBooks company (realm) id, DocuSign account id. */
  accountId: text('account_id'),
  accountName: text('account_name'),
  /** DocuSign: the account's REST base URI from userinfo. */
  apiBaseUri: text('api_base_uri'),
  /** Vendor-specific settings (QuickBooks: the item an invoice line sells). */
  settings: jsonb('settings').$type<Record<string, string>>().notNull().default({}),
  connectedBy: text('connected_by'),
  connectedAt: timestamp('connected_at', { withTimezone: true }),
  lastRefreshAt: timestamp('last_refresh_at', { withTimezone: true }),
  lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An authorization started by an administrator: the state (stored as a hash), the PKCE verifier
 * (sealed) and the redirect URI, consumed once by the callback. Older than ten minutes is refused.
 */
export const authorization = vendorsSchema.table('authorization', {
  id: uuid('id').primaryKey().defaultRandom(),
  vendor: text('vendor').notNull(),
  environment: text('environment').notNull(),
  stateHash: text('state_hash').notNull().unique(),
  codeVerifierSealed: text('code_verifier_sealed').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  startedBy: text('started_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

/**
 * Our own record of each policy's invoice in QuickBooks: one row per policy (unique), written before
 * anything is sent, with the request ids used for the customer and the invoice. Every retry sends the
 * same request ids, so QuickBooks answers a repeat with the original entity instead of a second one.
 * `request` keeps what was sent.
 */
export const quickbooksInvoice = vendorsSchema.table('quickbooks_invoice', {
  id: serial('id').primaryKey(),
  policyId: text('policy_id').notNull().unique(),
  policyNumber: text('policy_number').notNull(),
  eventId: uuid('event_id').notNull(),
  realmId: text('realm_id').notNull(),
  environment: text('environment').notNull(),
  status: text('status').notNull().default('pending'),
  customerName: text('customer_name').notNull(),
  amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
  customerRequestId: text('customer_request_id').notNull(),
  invoiceRequestId: text('invoice_request_id').notNull(),
  customerId: text('customer_id'),
  invoiceId: text('invoice_id'),
  invoiceDocNumber: text('invoice_doc_number'),
  request: jsonb('request').$type<Record<string, unknown>>().notNull().default({}),
  attempts: integer('attempts').notNull().default(0),
  /** While sending: until when this attempt holds the row; after a failure: when to try again. */
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/** A DocuSign envelope sent for a quote document, and what DocuSign answered. */
export const docusignEnvelope = vendorsSchema.table('docusign_envelope', {
  id: serial('id').primaryKey(),
  quoteNumber: text('quote_number').notNull(),
  documentName: text('document_name').notNull(),
  signerName: text('signer_name').notNull(),
  signerEmail: text('signer_email').notNull(),
  accountId: text('account_id').notNull(),
  environment: text('environment').notNull(),
  status: text('status').notNull().default('pending'),
  envelopeId: text('envelope_id'),
  lastError: text('last_error'),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});
