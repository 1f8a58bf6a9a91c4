import { eq } from 'drizzle-orm';
import { z, type Queryable } from '@atrium/sdk/server';
import {
  calculationsOf,
  fieldsOf,
  itemsOf,
  limitsOf,
  resolveDefinition,
  type ResolvedDefinition,
} from '../catalog/resolve.js';
import { fieldFormat, line, product, productVersion } from '../tables.js';

/**
 * The JSON document of a whole product version, as exported and imported: line and product, the
 * version's effective date and rounding, risk types (parents by name) with fields, items with limits
 * and calculations, rate tables with rows, and sequences. Everything is named, never numbered by id,
 * and inherited definitions are included, so a document stands alone and imports anywhere.
 */
export const PRODUCT_DOCUMENT_FORMAT = 'atrium.lines.product';

const str = z.string().max(20_000);
const name = z.string().trim().min(1).max(100);
const nullableStr = z.string().max(20_000).nullable();
const decimal = z.union([z.string().max(100), z.number()]).nullable();
const roundMode = z.enum(['half-up', 'half-even', 'down', 'up']).nullable();
const bound = z.union([z.string().max(100), z.number(), z.null()]);
const keyCell = z.union([z.string().max(500), z.number(), z.boolean(), z.strictObject({ from: bound, to: bound })]);

const fieldSchema = z.strictObject({
  name,
  label: str,
  type: z.enum(['date', 'boolean', 'string', 'number', 'enum', 'computed']),
  default: nullableStr.default(null),
  default_label: nullableStr.default(null),
  source: nullableStr.default(null),
  order: z.number().int().default(0),
  required: z.boolean().default(false),
  format: nullableStr.default(null),
  options: z
    .array(z.strictObject({ value: str, label: str.optional() }))
    .nullable()
    .default(null),
  formula: nullableStr.default(null),
  round_places: z.number().int().min(0).max(12).nullable().default(null),
  round_mode: roundMode.default(null),
});
const limitSchema = z.strictObject({
  kind: z.enum(['limit', 'deductible']),
  name: z.string().max(100).default(''),
  label: str,
  default: decimal.default(null),
  min: decimal.default(null),
  max: decimal.default(null),
  options: z.array(z.union([z.string().max(100), z.number()])).default([]),
  order: z.number().int().default(0),
});
const itemSchema = z.strictObject({
  name,
  label: str,
  presence: z.enum(['required', 'default', 'optional']).default('optional'),
  type: z.enum(['coverage', 'endorsement', 'fee', 'tax', 'surcharge', 'discount']).default('coverage'),
  fully_earned: z.boolean().default(false),
  order: z.number().int().default(0),
  premium_calculation: nullableStr.default(null),
  limits: z.array(limitSchema).max(1000).default([]),
});
const calculationSchema = z.strictObject({
  name,
  label: z.string().max(200).default(''),
  calculation: z.string().min(1).max(20_000),
  order: z.number().int().default(0),
  item: nullableStr.default(null),
  round_places: z.number().int().min(0).max(12).nullable().default(null),
  round_mode: roundMode.default(null),
});
const riskTypeSchema = z.strictObject({
  name,
  label: str,
  parent: nullableStr.default(null),
  sequence: z.number().int().default(0),
  premium_calculation: nullableStr.default(null),
  fields: z.array(fieldSchema).max(5000).default([]),
  items: z.array(itemSchema).max(1000).default([]),
  calculations: z.array(calculationSchema).max(5000).default([]),
});
const rateTableSchema = z.strictObject({
  name,
  label: str,
  risk_type: nullableStr.default(null),
  key_columns: z
    .array(z.strictObject({ name, label: z.string().max(200).optional(), match: z.enum(['exact', 'range']) }))
    .max(10),
  interpolate: nullableStr.default(null),
  default: decimal.default(null),
  order: z.number().int().default(0),
  rows: z
    .array(z.strictObject({ keys: z.record(z.string(), keyCell), value: z.union([z.string().max(100), z.number()]) }))
    .max(200_000),
});
const sequenceSchema = z.strictObject({
  name,
  label: str,
  prefix: z.string().max(100).default(''),
  suffix: z.string().max(100).default(''),
  padding: z.number().int().min(0).max(30).default(0),
  start: z.number().int().default(1),
  increment: z.number().int().default(1),
});

export const productDocumentSchema = z.strictObject({
  format: z.literal(PRODUCT_DOCUMENT_FORMAT, {
    error: `Not a product export: 'format' must be '${PRODUCT_DOCUMENT_FORMAT}'.`,
  }),
  format_version: z.literal(1),
  exported_at: z.string().max(100).optional(),
  line: z.strictObject({ name, label: str }),
  product: z.strictObject({
    name,
    label: str,
    description: z.string().max(20_000).default(''),
    settings: z.record(z.string(), z.unknown()).default({}),
  }),
  version: z.strictObject({
    number: z.number().int().optional(),
    label: z.string().min(1).max(100),
    status: z.string().max(20).optional(),
    effective_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'effective_date is YYYY-MM-DD'),
    premium_rounding: z.strictObject({
      places: z.number().int().min(0).max(12),
      mode: z.enum(['half-up', 'half-even', 'down', 'up']),
    }),
  }),
  risk_types: z.array(riskTypeSchema).max(500),
  rate_tables: z.array(rateTableSchema).max(1000).default([]),
  sequences: z.array(sequenceSchema).max(100).default([]),
});

export type ProductDocument = z.infer<typeof productDocumentSchema>;
export type DocumentRiskType = ProductDocument['risk_types'][number];

/** The document of one version, inheritance resolved. */
export async function buildProductDocument(db: Queryable, versionId: number): Promise<ProductDocument> {
  const definition = await resolveDefinition(db, versionId);
  const [head] = await db
    .select({ line, product, version: productVersion })
    .from(productVersion)
    .innerJoin(product, eq(product.id, productVersion.productId))
    .innerJoin(line, eq(line.id, product.lineId))
    .where(eq(productVersion.id, versionId))
    .limit(1);
  const formats = new Map((await db.select().from(fieldFormat)).map((f) => [f.id, f.name]));
  return documentOf(definition, head!, formats);
}

export function documentOf(
  definition: ResolvedDefinition,
  head: {
    line: { name: string; label: string };
    product: { name: string; label: string; description: string; settings: unknown };
    version: typeof productVersion.$inferSelect;
  },
  formats: Map<number, string>,
): ProductDocument {
  const { version } = head;
  return {
    format: PRODUCT_DOCUMENT_FORMAT,
    format_version: 1,
    exported_at: new Date().toISOString(),
    line: { name: head.line.name, label: head.line.label },
    product: {
      name: head.product.name,
      label: head.product.label,
      description: head.product.description,
      settings: (head.product.settings ?? {}) as Record<string, unknown>,
    },
    version: {
      number: version.number,
      label: version.label,
      status: version.status,
      effective_date: version.effectiveDate,
      premium_rounding: { places: version.premiumRoundingPlaces, mode: version.premiumRoundingMode },
    },
    risk_types: definition.riskTypes.map((t) => ({
      name: t.row.name,
      label: t.row.label,
      parent: t.parentName,
      sequence: t.row.sequence,
      premium_calculation: t.row.premiumCalculation,
      fields: fieldsOf(definition, t.row.name).map(({ row }) => ({
        name: row.name,
        label: row.label,
        type: row.type,
        default: row.defaultValue,
        default_label: row.defaultLabel,
        source: row.source,
        order: row.order,
        required: row.required,
        format: row.formatId === null ? null : (formats.get(row.formatId) ?? null),
        options: row.options ? row.options.map((o) => ({ ...o })) : null,
        formula: row.formula,
        round_places: row.roundPlaces,
        round_mode: row.roundMode,
      })),
      items: itemsOf(definition, t.row.name).map(({ row }) => ({
        name: row.name,
        label: row.label,
        presence: row.presence,
        type: row.type,
        fully_earned: row.fullyEarned,
        order: row.order,
        premium_calculation: row.premiumCalculation,
        limits: limitsOf(definition, t.row.name, row.name).map(({ row: limit }) => ({
          kind: limit.kind,
          name: limit.name,
          label: limit.label,
          default: limit.defaultValue,
          min: limit.minValue,
          max: limit.maxValue,
          options: limit.options,
          order: limit.order,
        })),
      })),
      calculations: calculationsOf(definition, t.row.name).map(({ row, itemName }) => ({
        name: row.name,
        label: row.label,
        calculation: row.calculation,
        order: row.order,
        item: itemName,
        round_places: row.roundPlaces,
        round_mode: row.roundMode,
      })),
    })),
    rate_tables: definition.rateTables.map((t) => ({
      name: t.row.name,
      label: t.row.label,
      risk_type: t.riskTypeName,
      key_columns: t.row.keyColumns.map((k) => ({ ...k })),
      interpolate: t.row.interpolate,
      default: t.row.defaultValue,
      order: t.row.order,
      rows: t.rows.map((r) => ({ keys: r.keys, value: r.value })),
    })),
    sequences: definition.sequences.map(({ row }) => ({
      name: row.name,
      label: row.label,
      prefix: row.prefix,
      suffix: row.suffix,
      padding: row.padding,
      start: row.start,
      increment: row.increment,
    })),
  };
}
