import { asc } from 'drizzle-orm';
import { notFound, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { fieldFormat, sequence } from '../tables.js';
import { definitionRowRoutes } from './definition-row-routes.js';
import { definitionScope, type DefinitionScope } from './definition-scope.js';
import type { Resolved, SequenceRow } from './resolve.js';
import { identifier, label, productParam } from './scope.js';

/**
 * Sequences of a product version (`products/{p}/sequences/` CRUD) — how policy and quote numbers are
 * formed: prefix, zero-padded number, suffix — and the global field formats (`GET field-formats/`).
 */
const tags = ['lines'];
const params = z.strictObject({ product: productParam });
const shape = {
  name: identifier('sequence'),
  label,
  prefix: z.string().max(20).optional(),
  suffix: z.string().max(20).optional(),
  padding: z.number().int().min(0).max(20).optional(),
  start: z.number().int().min(0).max(2000000000).optional(),
  increment: z.number().int().min(1).max(1000).optional(),
  next_value: z.number().int().min(0).max(2000000000).optional(),
};
const createBody = z.strictObject(shape);
const updateBody = z.strictObject({
  ...shape,
  name: shape.name.optional(),
  label: label.optional(),
  id: z.number().int().optional(),
});

function sequenceOut(resolved: Resolved<SequenceRow>) {
  const row = resolved.row;
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    prefix: row.prefix,
    suffix: row.suffix,
    padding: row.padding,
    start: row.start,
    increment: row.increment,
    next_value: row.nextValue,
    /** What the next number will look like. */
    preview: `${row.prefix}${String(row.nextValue).padStart(row.padding, '0')}${row.suffix}`,
    product_id: resolved.productId,
    inheritance_status: resolved.inheritanceStatus,
  };
}

function findSequence(scope: DefinitionScope, sequenceId: number): Resolved<SequenceRow> {
  const found = scope.definition.sequences.find((s) => s.row.id === sequenceId);
  if (!found)
    throw notFound(`Sequence ${sequenceId} not found in version ${scope.version.number} of ${scope.product.label}.`);
  return found;
}

export function sequenceRoutes(router: AtriumRouter, db: Database) {
  definitionRowRoutes(router, db, {
    base: '/lines/products/:product/sequences/',
    param: 'sequence',
    params,
    table: sequence,
    noun: 'Sequence',
    access: LINES_PERMISSIONS.sequence,
    scopeOf: (p, versionId) => definitionScope(db, p.product as string, versionId),
    rowsOf: (scope) => scope.definition.sequences,
    find: findSequence,
    out: (_scope, resolved) => sequenceOut(resolved),
    nameTaken: (_scope, name) => `A sequence named '${name}' already exists in this version.`,
    placeOf: (scope) => ({ productVersionId: scope.version.id }),
    create: {
      summary: 'Creates a sequence; draft only.',
      body: createBody,
      values: (_scope, body) => ({
        name: body.name,
        label: body.label,
        prefix: body.prefix ?? '',
        suffix: body.suffix ?? '',
        padding: body.padding ?? 0,
        start: body.start ?? 1,
        increment: body.increment ?? 1,
        nextValue: body.next_value ?? body.start ?? 1,
      }),
    },
    update: {
      summary: 'Changes a sequence; draft only.',
      body: updateBody,
      values: ({ row }, body) => ({
        name: body.name ?? row.name,
        label: body.label ?? row.label,
        prefix: body.prefix ?? row.prefix,
        suffix: body.suffix ?? row.suffix,
        padding: body.padding ?? row.padding,
        start: body.start ?? row.start,
        increment: body.increment ?? row.increment,
        nextValue: body.next_value ?? row.nextValue,
      }),
    },
    summaries: {
      list: 'Lists a version’s sequences.',
      one: 'One sequence.',
      delete: 'Deletes a sequence of this version; draft only.',
    },
  });

  router.get(
    '/lines/field-formats/',
    {
      config: { access: LINES_PERMISSIONS.fieldFormat.read },
      schema: { summary: 'Lists the field formats a field can use.', tags },
    },
    async () => {
      const rows = await db.select().from(fieldFormat).orderBy(asc(fieldFormat.label));
      const results = rows.map((row) => ({
        id: row.id,
        name: row.name,
        label: row.label,
        field_types: row.fieldTypes,
        pattern: row.pattern,
      }));
      return { count: results.length, results };
    },
  );
}
