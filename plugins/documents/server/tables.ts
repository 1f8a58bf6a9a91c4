import {
  type AnyPgColumn,
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgSchema,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The documents module's tables, all in its own Postgres schema (the plugin's `dbSchema`). */
export const documentsSchema = pgSchema('documents');

/** A folder of the template tree; a top-level folder has no parent. */
export const folder = documentsSchema.table(
  'folder',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => folder.id),
  },
  (t) => [index('folder_parent_idx').on(t.parentId)],
);

/** A Typst template; its source lives in its versions. `subject` names the sample data it is written for. */
export const template = documentsSchema.table(
  'template',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    subject: text('subject').notNull(),
    folderId: integer('folder_id')
      .notNull()
      .references(() => folder.id),
  },
  (t) => [unique('template_folder_name_uq').on(t.folderId, t.name)],
);

/** A version of a template: a draft is edited, a published version is frozen. */
export const version = documentsSchema.table(
  'version',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    templateId: integer('template_id')
      .notNull()
      .references(() => template.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('draft'),
    source: text('source').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedBy: text('published_by'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [unique('version_template_number_uq').on(t.templateId, t.number)],
);

/**
 * A rendered document: what was rendered, with what, and the SHA-256 of the PDF (base64 here). A
 * document rendered for a record (a policy, claim or quote) names it and keeps the record's book
 * (agent and agency contact ids) so that reads apply the record's module's scope.
 */
export const productionDocument = documentsSchema.table(
  'production_document',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    templateId: integer('template_id')
      .notNull()
      .references(() => template.id),
    versionId: integer('version_id')
      .notNull()
      .references(() => version.id),
    documentDate: date('document_date', { mode: 'string' }).notNull(),
    data: jsonb('data').notNull(),
    rendererVersion: text('renderer_version').notNull(),
    sha256: text('sha256').notNull(),
    pageCount: integer('page_count').notNull(),
    pdfBase64: text('pdf_base64').notNull(),
    recordType: text('record_type'),
    recordId: text('record_id'),
    agentContactId: text('agent_contact_id'),
    agencyContactId: text('agency_contact_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the document is for (`declarations`) and of what (a policy revision's id): one per pair. */
    purpose: text('purpose'),
    purposeKey: text('purpose_key'),
    /** The imported forms merged after the template's pages, each with the mapping it was filled by. */
    parts: jsonb('parts').notNull().default([]),
    /** The components' sources and the assets' SHA-256 the template read, by name (re-renders use these). */
    inputs: jsonb('inputs').notNull().default({ components: {}, assets: {} }),
    /**
     * Where the paper copy is: `not_printed`, `queued` (on the print queue) or `printed`, with who
     * moved it there and when (docs/documents.md, "Print and e-mail"). E-mails are the platform
     * mail service's, referenced `production-document:<id>`.
     */
    printState: text('print_state').notNull().default('not_printed'),
    printStateBy: text('print_state_by'),
    printStateAt: timestamp('print_state_at', { withTimezone: true }),
    /** The platform mail (core mail outbox id) that last sent this document, whose status lists show. */
    lastMailId: integer('last_mail_id'),
  },
  (t) => [
    index('production_document_template_idx').on(t.templateId),
    index('production_document_record_idx').on(t.recordType, t.recordId),
    uniqueIndex('production_document_purpose_uq').on(t.purpose, t.purposeKey),
    index('production_document_print_state_idx').on(t.printState),
  ],
);

/**
 * An imported AcroForm PDF (a state form): the blank PDF, the fields read from it with pdf-lib and
 * the mapping of each field to a data point, a constant or nothing. Published, it is frozen (its
 * mapping included), like a published template version; a new edition is imported again.
 */
export const importedDocument = documentsSchema.table(
  'imported_document',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    subject: text('subject').notNull(),
    folderId: integer('folder_id')
      .notNull()
      .references(() => folder.id),
    fileName: text('file_name').notNull(),
    /**
     * The form's edition as its issuer prints it (`ACORD 25 (2016/03)`, `ME HO-D (01/26)`): the spec's
     * form field is (name, mapping, edition), and a new edition is imported as a new document.
     */
    edition: text('edition').notNull().default(''),
    pdfBase64: text('pdf_base64').notNull(),
    sha256: text('sha256').notNull(),
    pageCount: integer('page_count').notNull(),
    fields: jsonb('fields').notNull(),
    mapping: jsonb('mapping').notNull(),
    status: text('status').notNull().default('draft'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedBy: text('published_by'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [unique('imported_document_folder_name_uq').on(t.folderId, t.name)],
);

/** The module's settings by key (`declarations`: which template is a line's dec page, and the form rules). */
export const setting = documentsSchema.table('setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A reusable piece of template source, imported as `#import "/components/<name>.typ": …`. */
export const component = documentsSchema.table('component', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique('component_name_uq'),
  description: text('description').notNull().default(''),
  source: text('source').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An image templates show as `#image("/assets/<name>")`; its bytes never change (upload a new name). */
export const asset = documentsSchema.table('asset', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique('asset_name_uq'),
  mimeType: text('mime_type').notNull(),
  contentBase64: text('content_base64').notNull(),
  sha256: text('sha256').notNull(),
  byteSize: integer('byte_size').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** How far a listener has read `core.event_outbox` (`policy-issued`: declarations made on issue). */
export const eventCursor = documentsSchema.table('event_cursor', {
  name: text('name').primaryKey(),
  lastOutboxId: bigint('last_outbox_id', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
