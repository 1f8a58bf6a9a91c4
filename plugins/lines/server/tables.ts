import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type {
  FieldOption,
  KeyColumn,
  ProductSettings,
  RateTableKeyCells,
  RiskStateJson,
} from '../shared/definition-types.js';

/**
 * The whole schema of the lines module (PostgreSQL schema `lines`). See docs/lines.md.
 *
 * Ownership: every definition row (risk type, field, item, limit, rate table, calculation, sequence)
 * belongs to exactly one product version (`product_version_id`). A new version copies the rows of the
 * version it starts from, so published versions are never changed.
 *
 * Inheritance: a child product's version points at one version of its parent product
 * (`product_version.parent_version_id`). What the child sees is resolved BY NAME along that chain:
 * a risk type, rate table or sequence of an ancestor version is visible unless the child has one of
 * the same name; a field, item or calculation is matched by (risk type name, name). A child may add
 * a field to an inherited risk type: its `risk_type_id` then names the ancestor's row while
 * `product_version_id` is the child's own version. Responses carry `inheritanceStatus`:
 * `own` (only in this version), `overridden` (this version's row replaces an ancestor's) or
 * `inherited` (read from an ancestor).
 *
 * Soft delete: rows the spec can "restore" (fields, items, limits, rate tables, rate rows,
 * calculations) have `deleted_at`; unique names only count live rows.
 *
 * Money, rates and limits are `numeric` (read as decimal strings), never floats.
 */
export const lines = pgSchema('lines');

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const day = (name: string) => date(name, { mode: 'string' });
const created = () => timestamptz('created_at').notNull().defaultNow();
const updated = () => timestamptz('updated_at').notNull().defaultNow();
const deleted = () => timestamptz('deleted_at');
const live = (column: AnyPgColumn) => sql`${column} is null`;

/** PostgreSQL bytea, read back as a Buffer whichever driver answers (node-postgres or PGlite). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array | string }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => {
    if (Buffer.isBuffer(value)) return value;
    if (typeof value === 'string') return Buffer.from(value.replace(/^\\x/, ''), 'hex');
    return Buffer.from(value);
  },
});

export const VERSION_STATUSES = ['draft', 'published', 'retired'] as const;
export const FIELD_TYPES = ['date', 'boolean', 'string', 'number', 'enum', 'computed'] as const;
export const ROUNDING_MODE_VALUES = ['half-up', 'half-even', 'down', 'up'] as const;
export const ITEM_PRESENCES = ['required', 'default', 'optional'] as const;
export const ITEM_TYPES = ['coverage', 'endorsement', 'fee', 'tax', 'surcharge', 'discount'] as const;
export const LIMIT_KINDS = ['limit', 'deductible'] as const;
export const TRANSACTION_TYPE_VALUES = [
  'new_business',
  'renewal',
  'endorsement',
  'cancellation',
  'reinstatement',
  'rewrite',
] as const;
export const IMPORT_STATUSES = ['uploaded', 'importing', 'imported', 'failed'] as const;
export const EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;

const inList = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;

/** A line of business (Homeowners, Personal Auto). */
export const line = lines.table(
  'line',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    description: text('description').notNull().default(''),
    createdAt: created(),
    updatedAt: updated(),
  },
  (table) => [uniqueIndex('line_name_key').on(sql`lower(${table.name})`)],
);

/**
 * A product of a line. Child products (`parent_product_id`) nest up to 3 levels (`depth` 1..3) and
 * inherit their parent's definitions. Names are unique across all lines (GetProductByName).
 */
export const product = lines.table(
  'product',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    lineId: integer('line_id')
      .notNull()
      .references(() => line.id, { onDelete: 'cascade' }),
    parentProductId: integer('parent_product_id').references((): AnyPgColumn => product.id, {
      onDelete: 'cascade',
    }),
    depth: integer('depth').notNull().default(1),
    name: text('name').notNull(),
    label: text('label').notNull(),
    description: text('description').notNull().default(''),
    settings: jsonb('settings').$type<ProductSettings>().notNull().default({}),
    createdAt: created(),
    updatedAt: updated(),
  },
  (table) => [
    uniqueIndex('product_name_key').on(sql`lower(${table.name})`),
    index('product_line_idx').on(table.lineId),
    index('product_parent_idx').on(table.parentProductId),
    check('product_depth_check', sql`${table.depth} between 1 and 3`),
  ],
);

/**
 * A version of a product. `draft` is the only editable status; `draft → published` (known-answer
 * cases must pass), `published → retired`, `retired → published` (reinstate). A product has at most
 * one draft. `number` counts 1, 2, 3 per product; `label` is free text (e.g. "2026.1").
 */
export const productVersion = lines.table(
  'product_version',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    /** For a child product: the version of the parent product this version builds on. */
    parentVersionId: integer('parent_version_id').references((): AnyPgColumn => productVersion.id, {
      onDelete: 'restrict',
    }),
    /** The version this one was copied from (none for a product's first version). */
    copiedFromVersionId: integer('copied_from_version_id').references((): AnyPgColumn => productVersion.id, {
      onDelete: 'set null',
    }),
    number: integer('number').notNull(),
    label: text('label').notNull(),
    status: text('status', { enum: VERSION_STATUSES }).notNull().default('draft'),
    effectiveDate: day('effective_date').notNull(),
    premiumRoundingPlaces: integer('premium_rounding_places').notNull().default(2),
    premiumRoundingMode: text('premium_rounding_mode', { enum: ROUNDING_MODE_VALUES }).notNull().default('half-up'),
    publishedAt: timestamptz('published_at'),
    retiredAt: timestamptz('retired_at'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (table) => [
    uniqueIndex('product_version_number_key').on(table.productId, table.number),
    uniqueIndex('product_version_one_draft_key')
      .on(table.productId)
      .where(sql`${table.status} = 'draft'`),
    index('product_version_parent_idx').on(table.parentVersionId),
    check('product_version_status_check', inList(table.status, VERSION_STATUSES)),
    check('product_version_rounding_check', inList(table.premiumRoundingMode, ROUNDING_MODE_VALUES)),
  ],
);

/** A risk type of a version (Policy, Dwelling, Vehicle…). Risk types nest up to 7 levels. */
export const riskType = lines.table(
  'risk_type',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    /** May name a risk type of an ancestor version (a child product adding under an inherited type). */
    parentRiskTypeId: integer('parent_risk_type_id').references((): AnyPgColumn => riskType.id, {
      onDelete: 'cascade',
    }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    /** Sibling order in the tree. */
    sequence: integer('sequence').notNull().default(0),
    /** The calculation that gives the risk's term premium (rating engine default: `premium`). */
    premiumCalculation: text('premium_calculation'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (table) => [
    uniqueIndex('risk_type_version_name_key').on(table.productVersionId, sql`lower(${table.name})`),
    index('risk_type_parent_idx').on(table.parentRiskTypeId),
  ],
);

/** A field format (phone, currency, zip…), global; GET field-formats/. */
export const fieldFormat = lines.table(
  'field_format',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    /** The field types the format applies to. */
    fieldTypes: jsonb('field_types').$type<string[]>().notNull().default([]),
    /** Display/input mask or pattern, e.g. `#####` or `$#,##0.00`. */
    pattern: text('pattern').notNull().default(''),
    createdAt: created(),
  },
  (table) => [uniqueIndex('field_format_name_key').on(sql`lower(${table.name})`)],
);

/** A risk field: a question answered on a risk. `formula` only for `computed`. */
export const riskField = lines.table(
  'risk_field',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    riskTypeId: integer('risk_type_id')
      .notNull()
      .references(() => riskType.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    type: text('type', { enum: FIELD_TYPES }).notNull(),
    /** Default answer as text ('2026', 'true', 'frame'); typed by `type`. */
    defaultValue: text('default_value'),
    defaultLabel: text('default_label'),
    /** Where an answer comes from when not asked (e.g. `policy.effective_date`, an integration); free text. */
    source: text('source'),
    order: integer('order').notNull().default(0),
    required: boolean('required').notNull().default(false),
    formatId: integer('format_id').references(() => fieldFormat.id, { onDelete: 'set null' }),
    options: jsonb('options').$type<FieldOption[]>(),
    formula: text('formula'),
    roundPlaces: integer('round_places'),
    roundMode: text('round_mode', { enum: ROUNDING_MODE_VALUES }),
    createdAt: created(),
    updatedAt: updated(),
    deletedAt: deleted(),
  },
  (table) => [
    uniqueIndex('risk_field_name_key')
      .on(table.productVersionId, table.riskTypeId, sql`lower(${table.name})`)
      .where(live(table.deletedAt)),
    index('risk_field_risk_type_idx').on(table.riskTypeId),
    check('risk_field_type_check', inList(table.type, FIELD_TYPES)),
    check('risk_field_formula_check', sql`(${table.type} = 'computed') = (${table.formula} is not null)`),
  ],
);

/** A risk item (coverage, endorsement, fee…) of a risk type; limits and deductibles sit under it. */
export const riskItem = lines.table(
  'risk_item',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    riskTypeId: integer('risk_type_id')
      .notNull()
      .references(() => riskType.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    presence: text('presence', { enum: ITEM_PRESENCES }).notNull().default('optional'),
    type: text('type', { enum: ITEM_TYPES }).notNull().default('coverage'),
    fullyEarned: boolean('fully_earned').notNull().default(false),
    order: integer('order').notNull().default(0),
    /** The calculation (same risk type) giving the item's premium; used for fully earned premium. */
    premiumCalculation: text('premium_calculation'),
    createdAt: created(),
    updatedAt: updated(),
    deletedAt: deleted(),
  },
  (table) => [
    uniqueIndex('risk_item_name_key')
      .on(table.productVersionId, table.riskTypeId, sql`lower(${table.name})`)
      .where(live(table.deletedAt)),
    index('risk_item_risk_type_idx').on(table.riskTypeId),
    check('risk_item_presence_check', inList(table.presence, ITEM_PRESENCES)),
    check('risk_item_type_check', inList(table.type, ITEM_TYPES)),
  ],
);

/**
 * A limit or deductible of an item. `name` is empty for the item's main limit/deductible
 * (`limit('dwelling')`) and set for a named one (`limit('dwelling', 'per_occurrence')`).
 */
export const itemLimit = lines.table(
  'item_limit',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    riskItemId: integer('risk_item_id')
      .notNull()
      .references(() => riskItem.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: LIMIT_KINDS }).notNull(),
    name: text('name').notNull().default(''),
    label: text('label').notNull(),
    defaultValue: numeric('default_value'),
    minValue: numeric('min_value'),
    maxValue: numeric('max_value'),
    /** Allowed values as decimal strings; empty = any value within min/max. */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    order: integer('order').notNull().default(0),
    createdAt: created(),
    updatedAt: updated(),
    deletedAt: deleted(),
  },
  (table) => [
    uniqueIndex('item_limit_name_key')
      .on(table.productVersionId, table.riskItemId, table.kind, sql`lower(${table.name})`)
      .where(live(table.deletedAt)),
    index('item_limit_item_idx').on(table.riskItemId),
    check('item_limit_kind_check', inList(table.kind, LIMIT_KINDS)),
  ],
);

/**
 * A rate table of a version. `key_columns` lists the key columns in lookup order
 * (`[{ name, label?, match: 'exact' | 'range' }]`); `interpolate` names a numeric exact key column to
 * interpolate on. `risk_type_id` (optional) says which risk type shows it; lookups see every table.
 */
export const rateTable = lines.table(
  'rate_table',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    riskTypeId: integer('risk_type_id').references(() => riskType.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    keyColumns: jsonb('key_columns').$type<KeyColumn[]>().notNull(),
    interpolate: text('interpolate'),
    /** The value when no row matches; null = a missing row is an error. */
    defaultValue: numeric('default_value'),
    order: integer('order').notNull().default(0),
    createdAt: created(),
    updatedAt: updated(),
    deletedAt: deleted(),
  },
  (table) => [
    uniqueIndex('rate_table_name_key')
      .on(table.productVersionId, sql`lower(${table.name})`)
      .where(live(table.deletedAt)),
    index('rate_table_risk_type_idx').on(table.riskTypeId),
  ],
);

/** A row of a rate table: key cells by column name (range cells `{ from, to }`) and the value. */
export const rateTableRow = lines.table(
  'rate_table_row',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    rateTableId: integer('rate_table_id')
      .notNull()
      .references(() => rateTable.id, { onDelete: 'cascade' }),
    keys: jsonb('keys').$type<RateTableKeyCells>().notNull(),
    value: numeric('value').notNull(),
    rowOrder: integer('row_order').notNull().default(0),
    createdAt: created(),
    deletedAt: deleted(),
  },
  (table) => [index('rate_table_row_table_idx').on(table.rateTableId, table.rowOrder)],
);

/** A calculation: a named formula of a risk type, run in `order`; with `risk_item_id` only when the risk has the item. */
export const calculation = lines.table(
  'calculation',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    riskTypeId: integer('risk_type_id')
      .notNull()
      .references(() => riskType.id, { onDelete: 'cascade' }),
    riskItemId: integer('risk_item_id').references(() => riskItem.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull().default(''),
    calculation: text('calculation').notNull(),
    order: integer('order').notNull().default(0),
    roundPlaces: integer('round_places'),
    roundMode: text('round_mode', { enum: ROUNDING_MODE_VALUES }),
    createdAt: created(),
    updatedAt: updated(),
    deletedAt: deleted(),
  },
  (table) => [
    uniqueIndex('calculation_name_key')
      .on(table.productVersionId, table.riskTypeId, sql`lower(${table.name})`)
      .where(live(table.deletedAt)),
    index('calculation_risk_type_idx').on(table.riskTypeId, table.order),
    index('calculation_item_idx').on(table.riskItemId),
  ],
);

/** A numbering sequence (policy numbers, quote numbers) of a version. */
export const sequence = lines.table(
  'sequence',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    prefix: text('prefix').notNull().default(''),
    suffix: text('suffix').notNull().default(''),
    padding: integer('padding').notNull().default(0),
    start: integer('start').notNull().default(1),
    increment: integer('increment').notNull().default(1),
    nextValue: integer('next_value').notNull().default(1),
    createdAt: created(),
    updatedAt: updated(),
  },
  (table) => [uniqueIndex('sequence_name_key').on(table.productVersionId, sql`lower(${table.name})`)],
);

/** An uploaded product definition file, imported later (`overwrite` replaces a draft's definitions). */
export const productImport = lines.table(
  'product_import',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    lineId: integer('line_id').references(() => line.id, { onDelete: 'cascade' }),
    productId: integer('product_id').references(() => product.id, { onDelete: 'set null' }),
    productVersionId: integer('product_version_id').references(() => productVersion.id, { onDelete: 'set null' }),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('uploaded'),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    file: bytea('file').notNull(),
    overwrite: boolean('overwrite').notNull().default(false),
    errors: jsonb('errors').$type<unknown[]>().notNull().default([]),
    createdBy: text('created_by'),
    createdAt: created(),
    finishedAt: timestamptz('finished_at'),
  },
  (table) => [check('product_import_status_check', inList(table.status, IMPORT_STATUSES))],
);

/** An export of a product version (file kept for download). */
export const productExport = lines.table(
  'product_export',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    status: text('status', { enum: EXPORT_STATUSES }).notNull().default('pending'),
    format: text('format').notNull().default('json'),
    fileName: text('file_name'),
    contentType: text('content_type'),
    file: bytea('file'),
    errors: jsonb('errors').$type<unknown[]>().notNull().default([]),
    createdBy: text('created_by'),
    createdAt: created(),
    finishedAt: timestamptz('finished_at'),
  },
  (table) => [
    index('product_export_product_idx').on(table.productId),
    check('product_export_status_check', inList(table.status, EXPORT_STATUSES)),
  ],
);

/** The mapping of a product version (per risk type a list of field entries with sources, targets, operation). */
export const productMapping = lines.table(
  'product_mapping',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    mapping: jsonb('mapping').$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: updated(),
  },
  (table) => [uniqueIndex('product_mapping_version_key').on(table.productVersionId)],
);

/**
 * A scenario of a version: a risk tree to rate for preview. With `expected_premium` it is a
 * known-answer case: publishing the version rates it and refuses when the premium (or the recorded
 * `expected_worksheet`) differs. Version copies carry scenarios forward.
 */
export const scenario = lines.table(
  'scenario',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    productVersionId: integer('product_version_id')
      .notNull()
      .references(() => productVersion.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    transactionType: text('transaction_type', { enum: TRANSACTION_TYPE_VALUES }).notNull().default('new_business'),
    effectiveDate: day('effective_date').notNull(),
    termStart: day('term_start'),
    termEnd: day('term_end'),
    expectedPremium: numeric('expected_premium'),
    expectedWorksheet: jsonb('expected_worksheet').$type<Record<string, unknown>>(),
    lastRating: jsonb('last_rating').$type<Record<string, unknown>>(),
    lastRatedAt: timestamptz('last_rated_at'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (table) => [
    uniqueIndex('scenario_name_key').on(table.productVersionId, sql`lower(${table.name})`),
    check('scenario_transaction_type_check', inList(table.transactionType, TRANSACTION_TYPE_VALUES)),
  ],
);

/** A risk of a scenario: a tree by `parent_risk_id`; `risk_state` holds field_answers and items. */
export const scenarioRisk = lines.table(
  'scenario_risk',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    scenarioId: integer('scenario_id')
      .notNull()
      .references(() => scenario.id, { onDelete: 'cascade' }),
    parentRiskId: integer('parent_risk_id').references((): AnyPgColumn => scenarioRisk.id, { onDelete: 'cascade' }),
    /** Risk type name. */
    riskType: text('risk_type').notNull(),
    riskState: jsonb('risk_state').$type<RiskStateJson>().notNull(),
    order: integer('order').notNull().default(0),
    createdAt: created(),
    updatedAt: updated(),
  },
  (table) => [
    index('scenario_risk_scenario_idx').on(table.scenarioId),
    index('scenario_risk_parent_idx').on(table.parentRiskId),
  ],
);
