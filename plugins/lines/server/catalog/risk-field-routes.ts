import { FormulaSyntaxError, parseFormula } from '@atrium/rating';
import { eq } from 'drizzle-orm';
import { ApiError, fieldError, notFound, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { fieldFormat, FIELD_TYPES, riskField, ROUNDING_MODE_VALUES } from '../tables.js';
import { definitionRowRoutes } from './definition-row-routes.js';
import { fieldOut, type RiskTypeScope } from './definition-scope.js';
import { fieldsOf, type FieldRow, type Resolved } from './resolve.js';
import { riskTypeRows, type RiskTypeChildKind } from './risk-type-child-rows.js';
import { id, identifier, label } from './scope.js';

/**
 * Risk fields of a risk type: `products/{p}/risk-types/{t}/risk-fields/` list and create,
 * `{f}/` read, change (PUT/PATCH) and soft delete, `{f}/restore/`, `reorder/`. Changing an inherited
 * field in a child product writes the child's own override; deleting one is refused.
 */
const option = z.union([
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .transform((value) => ({ value })),
  z.strictObject({ value: z.string().trim().min(1).max(200), label: z.string().trim().max(200).optional() }),
]);
const scalar = z.union([z.string().max(500), z.number(), z.boolean()]).transform((value) => String(value));
const fieldShape = {
  name: identifier('field'),
  label,
  type: z.enum(FIELD_TYPES),
  default_value: scalar.nullable().optional(),
  default: scalar.nullable().optional(),
  default_label: z.string().trim().max(200).nullable().optional(),
  source: z.string().trim().max(500).nullable().optional(),
  order: z.number().int().min(0).max(100000).optional(),
  required: z.boolean().optional(),
  format_id: id.nullable().optional(),
  options: z.array(option).max(500).nullable().optional(),
  formula: z.string().trim().min(1).max(10000).nullable().optional(),
  round: z
    .strictObject({ places: z.number().int().min(0).max(10), mode: z.enum(ROUNDING_MODE_VALUES).optional() })
    .nullable()
    .optional(),
};
const createBody = z.strictObject(fieldShape);
const updateBody = z.strictObject({
  ...Object.fromEntries(Object.entries(fieldShape).map(([k, v]) => [k, v.optional()])),
  id: z.number().int().optional(),
  inheritance_status: z.string().optional(),
  product_id: z.number().int().optional(),
}) as unknown as z.ZodType<Partial<z.infer<typeof createBody>> & { id?: number }>;

type FieldValues = {
  name: string;
  label: string;
  type: FieldRow['type'];
  defaultValue: string | null;
  defaultLabel: string | null;
  source: string | null;
  order: number;
  required: boolean;
  formatId: number | null;
  options: { value: string; label?: string }[] | null;
  formula: string | null;
  roundPlaces: number | null;
  roundMode: FieldRow['roundMode'];
};

function valuesOf(row: FieldRow): FieldValues {
  return {
    name: row.name,
    label: row.label,
    type: row.type,
    defaultValue: row.defaultValue,
    defaultLabel: row.defaultLabel,
    source: row.source,
    order: row.order,
    required: row.required,
    formatId: row.formatId,
    options: row.options,
    formula: row.formula,
    roundPlaces: row.roundPlaces,
    roundMode: row.roundMode,
  };
}

const fieldKind: RiskTypeChildKind<FieldRow, FieldValues> = {
  table: riskField,
  noun: 'Field',
  aNoun: 'a field',
  rowsOf: fieldsOf,
  valuesOf,
};

/** Applies a request body onto values (absent keys keep theirs). */
function merge(values: FieldValues, body: Partial<z.infer<typeof createBody>>): FieldValues {
  const next = { ...values };
  if (body.name !== undefined) next.name = body.name;
  if (body.label !== undefined) next.label = body.label;
  if (body.type !== undefined) next.type = body.type;
  const def = body.default_value !== undefined ? body.default_value : body.default;
  if (def !== undefined) next.defaultValue = def === '' ? null : def;
  if (body.default_label !== undefined) next.defaultLabel = body.default_label;
  if (body.source !== undefined) next.source = body.source || null;
  if (body.order !== undefined) next.order = body.order;
  if (body.required !== undefined) next.required = body.required;
  if (body.format_id !== undefined) next.formatId = body.format_id;
  if (body.options !== undefined) next.options = body.options && body.options.length ? body.options : null;
  if (body.formula !== undefined) next.formula = body.formula;
  if (body.round !== undefined) {
    next.roundPlaces = body.round?.places ?? null;
    next.roundMode = body.round ? (body.round.mode ?? 'half-up') : null;
  }
  if (next.type !== 'computed') {
    next.formula = null;
    next.roundPlaces = null;
    next.roundMode = null;
  }
  if (next.type !== 'enum') next.options = null;
  return next;
}

/** Checks a field as a whole: formula for computed fields (syntax with its position), options, default by type. */
function checkField(values: FieldValues) {
  if (values.type === 'computed') {
    if (!values.formula) throw fieldError('formula', 'A computed field needs a formula.');
    try {
      parseFormula(values.formula);
    } catch (error) {
      if (error instanceof FormulaSyntaxError) {
        throw new ApiError(400, error.message, {
          source: { pointer: '/formula' },
          code: 'formula_syntax',
          meta: { position: error.position },
        });
      }
      throw error;
    }
    if (values.defaultValue !== null) throw fieldError('default_value', 'A computed field has no default.');
  }
  if (values.type === 'enum') {
    if (!values.options?.length) throw fieldError('options', 'An enum field needs at least one option.');
    const seen = new Set<string>();
    for (const o of values.options) {
      if (seen.has(o.value)) throw fieldError('options', `The option '${o.value}' is listed twice.`);
      seen.add(o.value);
    }
  }
  const d = values.defaultValue;
  if (d === null) return;
  const bad = (message: string) => fieldError('default_value', message);
  switch (values.type) {
    case 'number':
      if (!/^-?\d+(\.\d+)?$/.test(d)) throw bad(`The default '${d}' is not a number.`);
      break;
    case 'boolean':
      if (d !== 'true' && d !== 'false') throw bad(`The default of a boolean field is true or false, not '${d}'.`);
      break;
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d)))
        throw bad(`The default '${d}' is not a date (YYYY-MM-DD).`);
      break;
    case 'enum':
      if (!values.options!.some((o) => o.value === d)) throw bad(`The default '${d}' is not one of the options.`);
      break;
  }
}

/** A field of the risk type by id; the id of an ancestor's row the version overrides finds the override. */
function findField(scope: RiskTypeScope, fieldId: number): Resolved<FieldRow> {
  const fields = fieldsOf(scope.definition, scope.riskType.row.name);
  const found = fields.find((f) => f.row.id === fieldId);
  if (found) return found;
  const row = scope.definition.fieldRowsById.get(fieldId);
  const typeName = row ? scope.definition.riskTypeRowsById.get(row.riskTypeId)?.name : undefined;
  if (row && typeName?.toLowerCase() === scope.riskType.row.name.toLowerCase()) {
    const byName = fields.find((f) => f.row.name.toLowerCase() === row.name.toLowerCase());
    if (byName) return byName;
  }
  throw notFound(`Field ${fieldId} not found on risk type ${scope.riskType.row.name}.`);
}

export function riskFieldRoutes(router: AtriumRouter, db: Database) {
  const assertFormat = async (formatId: number | null) => {
    if (formatId === null) return;
    const [row] = await db.select({ id: fieldFormat.id }).from(fieldFormat).where(eq(fieldFormat.id, formatId));
    if (!row) throw fieldError('format_id', `Field format ${formatId} not found.`);
  };
  definitionRowRoutes(router, db, {
    ...riskTypeRows(db, fieldKind),
    base: '/lines/products/:product/risk-types/:riskType/risk-fields/',
    param: 'field',
    access: LINES_PERMISSIONS.riskField,
    find: findField,
    out: (scope, f) => fieldOut(f, scope.riskType.row.name),
    create: {
      summary: 'Adds a field (date, boolean, string, number, enum or computed) to a risk type; draft only.',
      body: createBody,
      values: (scope, body) =>
        merge(
          {
            name: '',
            label: '',
            type: 'string',
            defaultValue: null,
            defaultLabel: null,
            source: null,
            order: Math.max(0, ...fieldsOf(scope.definition, scope.riskType.row.name).map((f) => f.row.order)) + 1,
            required: false,
            formatId: null,
            options: null,
            formula: null,
            roundPlaces: null,
            roundMode: null,
          },
          body,
        ),
    },
    update: {
      summary: 'Changes a field; on an inherited field this writes the child product’s override. Draft only.',
      body: updateBody,
      values: (current, body) => merge(valuesOf(current.row), body),
    },
    async check(values) {
      checkField(values);
      await assertFormat(values.formatId);
    },
    summaries: {
      list: 'Lists a risk type’s fields in order (deleted=true: this version’s deleted fields, to restore).',
      one: 'One field.',
      delete: 'Deletes a field (it can be restored); draft only.',
      restore: 'Restores a deleted field of this version; draft only.',
      reorder: 'Sets the fields’ order: `order` lists field ids first to last (inherited ones become overrides).',
    },
  });
}
