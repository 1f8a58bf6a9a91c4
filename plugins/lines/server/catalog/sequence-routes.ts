import { asc, eq } from 'drizzle-orm';
import { fieldError, notFound, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { fieldFormat, sequence } from '../tables.js';
import { chainIndex, definitionScope, refuseInherited, type DefinitionScope } from './definition-scope.js';
import type { Resolved, SequenceRow } from './resolve.js';
import { id, identifier, label, productParam, versionQuery, putAndPatch } from './scope.js';
import { assertDraftVersion } from './version-guard.js';

/**
 * Sequences of a product version (`products/{p}/sequences/` CRUD) — how policy and quote numbers are
 * formed: prefix, zero-padded number, suffix — and the global field formats (`GET field-formats/`).
 */
const tags = ['lines'];
const params = z.strictObject({ product: productParam });
const oneParams = z.strictObject({ product: productParam, sequence: id });
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

function assertNameFree(scope: DefinitionScope, name: string, exceptName?: string) {
  if (
    scope.definition.sequences.some((s) => s.row.name.toLowerCase() === name.toLowerCase() && s.row.name !== exceptName)
  ) {
    throw fieldError('name', `A sequence named '${name}' already exists in this version.`);
  }
}

// Hand-written, not a resource declaration: sequences are children of a versioned product definition (inherited overrides, draft-only writes, the version chosen by version_id), not rows of one table.
export function sequenceRoutes(router: AtriumRouter, db: Database) {
  const base = '/lines/products/:product/sequences/';
  const one = `${base}:sequence/`;

  router.get(
    base,
    {
      config: { access: LINES_PERMISSIONS.sequence.read },
      schema: { summary: 'Lists a version’s sequences.', tags, params, querystring: versionQuery },
    },
    async (request) => {
      const scope = await definitionScope(db, request.params.product, request.query.version_id);
      const results = scope.definition.sequences.map(sequenceOut);
      return { count: results.length, results };
    },
  );

  router.get(
    one,
    {
      config: { access: LINES_PERMISSIONS.sequence.read },
      schema: { summary: 'One sequence.', tags, params: oneParams, querystring: versionQuery },
    },
    async (request) => {
      const scope = await definitionScope(db, request.params.product, request.query.version_id);
      return sequenceOut(findSequence(scope, request.params.sequence));
    },
  );

  router.post(
    base,
    {
      config: { access: LINES_PERMISSIONS.sequence.create },
      schema: { summary: 'Creates a sequence; draft only.', tags, params, querystring: versionQuery, body: createBody },
    },
    async (request, reply) => {
      const scope = await definitionScope(db, request.params.product, request.query.version_id);
      await assertDraftVersion(db, scope.version.id);
      const body = request.body;
      assertNameFree(scope, body.name);
      const start = body.start ?? 1;
      const [row] = await db
        .insert(sequence)
        .values({
          productVersionId: scope.version.id,
          name: body.name,
          label: body.label,
          prefix: body.prefix ?? '',
          suffix: body.suffix ?? '',
          padding: body.padding ?? 0,
          start,
          increment: body.increment ?? 1,
          nextValue: body.next_value ?? start,
        })
        .returning();
      reply.code(201);
      return sequenceOut({ row: row!, inheritanceStatus: 'own', productId: scope.product.id });
    },
  );

  putAndPatch(
    router,
    one,
    {
      access: LINES_PERMISSIONS.sequence.update,
      summary: 'Changes a sequence; draft only.',
      params: oneParams,
      body: updateBody,
    },
    async (request) => {
      const scope = await definitionScope(db, request.params.product, request.query.version_id);
      await assertDraftVersion(db, scope.version.id);
      const current = findSequence(scope, request.params.sequence);
      const body = request.body;
      const inherited = chainIndex(scope, current.row.productVersionId) > 0;
      if (body.name !== undefined && body.name !== current.row.name) {
        if (inherited)
          throw fieldError('name', `Sequence ${current.row.name} is inherited; an override keeps its name.`);
        assertNameFree(scope, body.name, current.row.name);
      }
      const values = {
        name: body.name ?? current.row.name,
        label: body.label ?? current.row.label,
        prefix: body.prefix ?? current.row.prefix,
        suffix: body.suffix ?? current.row.suffix,
        padding: body.padding ?? current.row.padding,
        start: body.start ?? current.row.start,
        increment: body.increment ?? current.row.increment,
        nextValue: body.next_value ?? current.row.nextValue,
      };
      const [row] = inherited
        ? await db
            .insert(sequence)
            .values({ ...values, productVersionId: scope.version.id })
            .returning()
        : await db
            .update(sequence)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(sequence.id, current.row.id))
            .returning();
      return sequenceOut({
        row: row!,
        inheritanceStatus: inherited ? 'overridden' : current.inheritanceStatus,
        productId: scope.product.id,
      });
    },
  );

  router.delete(
    one,
    {
      config: { access: LINES_PERMISSIONS.sequence.delete },
      schema: {
        summary: 'Deletes a sequence of this version; draft only.',
        tags,
        params: oneParams,
        querystring: versionQuery,
      },
    },
    async (request, reply) => {
      const scope = await definitionScope(db, request.params.product, request.query.version_id);
      await assertDraftVersion(db, scope.version.id);
      const current = findSequence(scope, request.params.sequence);
      refuseInherited(scope, `Sequence ${current.row.name}`, current.row.productVersionId);
      await db.delete(sequence).where(eq(sequence.id, current.row.id));
      reply.code(204);
    },
  );

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
