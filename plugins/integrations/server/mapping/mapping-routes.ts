import { and, desc, eq, max } from 'drizzle-orm';
import {
  attributeError,
  badRequest,
  conflict,
  notFound,
  resourceDocument,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { can } from '../permissions.js';
import { dataMapping } from '../tables.js';
import { compileMapping, evaluateMapping, MappingError, moneyWarnings } from './evaluate.js';

/**
 * Data mappings (spec: GET/POST /api/datamapping/mappings/, GET/PATCH/DELETE …/{id}; attributes
 * from, to, version, mapping) and POST /api/datamapping/map/. Written by hand: versions are
 * immutable once published, and a PATCH of a published version makes the next draft instead of
 * changing it — not a plain collection.
 */
const tags = ['integrations'];
const security = [{ bearer: [] }];
const TYPE = 'mapping';

const name = z
  .string()
  .trim()
  .min(1, 'This field is required.')
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'Use letters, digits, dots, dashes, colons or underscores.');
const mappingValue = z.strictObject(
  {
    language: z.literal('jsonata', { error: "language must be 'jsonata'." }),
    expression: z.string().min(1, 'The expression is required.').max(50_000),
    sample: z.unknown().optional(),
  },
  { error: "The mapping must be a JSON object {language: 'jsonata', expression, sample}." },
);
const createBody = resourceDocument(TYPE, { from: name, to: name, mapping: mappingValue });
const patchBody = resourceDocument(
  TYPE,
  { mapping: mappingValue.optional(), status: z.enum(['draft', 'published']).optional() },
  { id: 'required' },
);
const idParams = z.object({ id: z.uuid({ error: 'Not a mapping id.' }) });

type Row = typeof dataMapping.$inferSelect;
const present = (row: Row) => ({
  type: TYPE,
  id: row.id,
  attributes: {
    from: row.from,
    to: row.to,
    version: row.version,
    mapping: row.mapping,
    status: row.status,
    created_by: row.createdBy,
    date_created: row.createdAt.toISOString(),
    date_published: row.publishedAt?.toISOString() ?? null,
  },
});

const checkExpression = (expression: string) => {
  try {
    compileMapping(expression);
  } catch (error) {
    if (error instanceof MappingError) throw attributeError('mapping', error.message);
    throw error;
  }
};

export function mappingRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  const find = async (id: string) => {
    const [row] = await db.select().from(dataMapping).where(eq(dataMapping.id, id));
    if (!row) throw notFound(`mapping ${id} not found.`);
    return row;
  };

  router.get(
    '/datamapping/mappings/',
    {
      config: { jsonapi: true, access: can('mapping', 'read') },
      schema: {
        summary: 'Data mapping versions, by from and to, newest version first.',
        tags,
        security,
        querystring: z.strictObject({
          'filter[from]': z.string().max(100).optional(),
          'filter[to]': z.string().max(100).optional(),
          'filter[status]': z.enum(['draft', 'published']).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await db
        .select()
        .from(dataMapping)
        .where(
          and(
            q['filter[from]'] ? eq(dataMapping.from, q['filter[from]']) : undefined,
            q['filter[to]'] ? eq(dataMapping.to, q['filter[to]']) : undefined,
            q['filter[status]'] ? eq(dataMapping.status, q['filter[status]']) : undefined,
          ),
        )
        .orderBy(dataMapping.from, dataMapping.to, desc(dataMapping.version));
      return { data: rows.map(present), meta: { count: rows.length } };
    },
  );

  router.get(
    '/datamapping/mappings/:id',
    {
      config: { jsonapi: true, access: can('mapping', 'read') },
      schema: { summary: 'One mapping version.', tags, security, params: idParams },
    },
    async (request) => ({ data: present(await find(request.params.id)) }),
  );

  router.post(
    '/datamapping/mappings/',
    {
      config: { jsonapi: true, access: can('mapping', 'create') },
      schema: {
        summary: 'Creates a mapping: the next version of (from, to), a draft.',
        tags,
        security,
        body: createBody,
      },
    },
    async (request, reply) => {
      const input = request.body.data.attributes;
      if (!input?.from) throw attributeError('from', 'This field is required.');
      if (!input.to) throw attributeError('to', 'This field is required.');
      if (!input.mapping) throw attributeError('mapping', 'This field is required.');
      checkExpression(input.mapping.expression);
      const row = await db.transaction(async (tx) => {
        const [draft] = await tx
          .select({ id: dataMapping.id })
          .from(dataMapping)
          .where(and(eq(dataMapping.from, input.from), eq(dataMapping.to, input.to), eq(dataMapping.status, 'draft')));
        if (draft) throw conflict(`A draft of ${input.from} → ${input.to} exists already; edit it instead.`);
        const [{ latest }] = (await tx
          .select({ latest: max(dataMapping.version) })
          .from(dataMapping)
          .where(and(eq(dataMapping.from, input.from), eq(dataMapping.to, input.to)))) as [{ latest: number | null }];
        const [created] = await tx
          .insert(dataMapping)
          .values({
            from: input.from,
            to: input.to,
            version: (latest ?? 0) + 1,
            mapping: input.mapping!,
            status: 'draft',
            createdBy: request.principal.username,
          })
          .returning();
        return created!;
      });
      reply.status(201);
      return { data: present(row) };
    },
  );

  router.patch(
    '/datamapping/mappings/:id',
    {
      config: { jsonapi: true, access: can('mapping', 'update') },
      schema: {
        summary:
          'Edits a draft (mapping; status published publishes it). On a published version it makes the next version, a draft, and answers it.',
        tags,
        security,
        params: idParams,
        body: patchBody,
      },
    },
    async (request) => {
      const { id } = request.params;
      if (request.body.data.id !== id) throw conflict('The document id does not match the URL.');
      const input = request.body.data.attributes ?? {};
      if (input.mapping) checkExpression(input.mapping.expression);
      const row = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(dataMapping).where(eq(dataMapping.id, id)).for('update');
        if (!current) throw notFound(`mapping ${id} not found.`);
        if (current.status === 'draft') {
          const [updated] = await tx
            .update(dataMapping)
            .set({
              ...(input.mapping ? { mapping: input.mapping } : {}),
              ...(input.status === 'published' ? { status: 'published', publishedAt: new Date() } : {}),
              updatedAt: new Date(),
            })
            .where(eq(dataMapping.id, id))
            .returning();
          return updated!;
        }
        // Published: never changed. The change becomes the next version, a draft.
        if (!input.mapping) throw attributeError('mapping', 'A published version cannot change; send the new mapping.');
        const [draft] = await tx
          .select()
          .from(dataMapping)
          .where(
            and(eq(dataMapping.from, current.from), eq(dataMapping.to, current.to), eq(dataMapping.status, 'draft')),
          );
        if (draft) {
          const [updated] = await tx
            .update(dataMapping)
            .set({ mapping: input.mapping, updatedAt: new Date() })
            .where(eq(dataMapping.id, draft.id))
            .returning();
          return updated!;
        }
        const [{ latest }] = (await tx
          .select({ latest: max(dataMapping.version) })
          .from(dataMapping)
          .where(and(eq(dataMapping.from, current.from), eq(dataMapping.to, current.to)))) as [{ latest: number }];
        const [created] = await tx
          .insert(dataMapping)
          .values({
            from: current.from,
            to: current.to,
            version: latest + 1,
            mapping: input.mapping,
            status: input.status === 'published' ? 'published' : 'draft',
            publishedAt: input.status === 'published' ? new Date() : null,
            createdBy: request.principal.username,
          })
          .returning();
        return created!;
      });
      return { data: present(row) };
    },
  );

  router.delete(
    '/datamapping/mappings/:id',
    {
      config: { jsonapi: true, access: can('mapping', 'delete') },
      schema: { summary: 'Removes a mapping version.', tags, security, params: idParams },
    },
    async (request, reply) => {
      await find(request.params.id);
      await db.delete(dataMapping).where(eq(dataMapping.id, request.params.id));
      reply.status(204);
      return reply.send();
    },
  );

  router.post(
    '/datamapping/map/',
    {
      config: { access: can('mapping', 'execute') },
      schema: {
        summary: 'Runs the newest published mapping from → to (or the given version) on the body.',
        tags,
        security,
        querystring: z.strictObject({
          from: name,
          to: name,
          version: z.coerce.number().int().positive().optional(),
        }),
        body: z.unknown(),
      },
    },
    async (request) => {
      const q = request.query;
      const [row] = await db
        .select()
        .from(dataMapping)
        .where(
          and(
            eq(dataMapping.from, q.from),
            eq(dataMapping.to, q.to),
            eq(dataMapping.status, 'published'),
            q.version ? eq(dataMapping.version, q.version) : undefined,
          ),
        )
        .orderBy(desc(dataMapping.version))
        .limit(1);
      if (!row)
        throw notFound(`No published mapping from ${q.from} to ${q.to}${q.version ? ` version ${q.version}` : ''}.`);
      try {
        const result = await evaluateMapping(row.mapping.expression, request.body);
        return { from: row.from, to: row.to, version: row.version, result: result ?? null };
      } catch (error) {
        if (error instanceof MappingError) throw badRequest(error.message, { code: 'mapping_failed' });
        throw error;
      }
    },
  );

  router.post(
    '/datamapping/preview/',
    {
      config: { access: can('mapping', 'read') },
      schema: {
        summary: "The editor's live preview: an expression evaluated on a sample, with money warnings.",
        tags,
        security,
        body: z.strictObject({ expression: z.string().min(1).max(50_000), sample: z.unknown().optional() }),
      },
    },
    async (request) => {
      try {
        const result = await evaluateMapping(request.body.expression, request.body.sample ?? {});
        return { result: result ?? null, warnings: moneyWarnings(result), error: null };
      } catch (error) {
        if (error instanceof MappingError) return { result: null, warnings: [], error: error.message };
        throw error;
      }
    },
  );
}
