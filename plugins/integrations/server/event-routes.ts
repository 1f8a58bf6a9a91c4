import { sql } from 'drizzle-orm';
import { eventCatalogue, notFound, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { can } from './permissions.js';

/**
 * The events browser (plain JSON): the outbox newest first, the topic catalogue, one schema. The
 * outbox is the core's table (`core.event_outbox`); this module only reads it.
 */
const tags = ['integrations'];
const security = [{ bearer: [] }];

export function eventRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  router.get(
    '/events/outbox',
    {
      config: { access: can('event', 'read') },
      schema: {
        summary:
          'Events in the outbox, newest first, as envelopes {event_id, event_date, schema_id, version, topic, triggering_user, data}.',
        description:
          'module keeps one module’s topics (its category); topic one topic; before (an outbox position) pages back.',
        tags,
        security,
        querystring: z.strictObject({
          module: z
            .string()
            .regex(/^[a-z][a-z0-9-]*$/, 'A module id, e.g. claims.')
            .optional(),
          topic: z.string().max(200).optional(),
          before: z.coerce.number().int().positive().optional(),
          page_size: z.coerce.number().int().min(1).max(200).default(50),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const conditions = [
        q.module ? sql`topic like ${`${q.module}.%`}` : undefined,
        q.topic ? sql`topic = ${q.topic}` : undefined,
        q.before ? sql`id < ${q.before}` : undefined,
      ].filter(Boolean);
      const where = conditions.length
        ? sql`where ${sql.join(conditions as ReturnType<typeof sql>[], sql` and `)}`
        : sql``;
      const rows = (
        await context.db.execute<{
          id: string;
          event_id: string;
          event_date: string | Date;
          schema_id: string;
          version: string;
          topic: string;
          triggering_user: string;
          data: unknown;
        }>(sql`select id, event_id, event_date, schema_id, version, topic, triggering_user, data
                 from core.event_outbox ${where} order by id desc limit ${q.page_size + 1}`)
      ).rows;
      const page = rows.slice(0, q.page_size);
      const more = rows.length > q.page_size;
      return {
        results: page.map((row) => ({
          position: Number(row.id),
          event_id: row.event_id,
          event_date: new Date(row.event_date).toISOString(),
          schema_id: row.schema_id,
          version: row.version,
          topic: row.topic,
          triggering_user: row.triggering_user,
          data: row.data,
        })),
        next_before: more ? Number(page[page.length - 1]!.id) : null,
      };
    },
  );

  router.get(
    '/events/catalogue',
    {
      config: { access: can('event', 'read') },
      schema: { summary: "Every installed module's declared topics with their JSON Schemas.", tags, security },
    },
    async () => ({ results: eventCatalogue() }),
  );

  router.get(
    '/events/schemas/:schemaId/:version',
    {
      config: { access: can('event', 'read') },
      schema: {
        summary: 'The JSON Schema of one schema id and version.',
        tags,
        security,
        params: z.object({ schemaId: z.string().max(200), version: z.string().max(20) }),
      },
    },
    async (request) => {
      const entry = eventCatalogue().find(
        (e) => e.schema_id === request.params.schemaId && e.version === request.params.version,
      );
      if (!entry) throw notFound(`Schema ${request.params.schemaId} ${request.params.version} not found.`);
      return {
        schema_id: entry.schema_id,
        version: entry.version,
        topics: eventCatalogue()
          .filter((e) => e.schema_id === entry.schema_id && e.version === entry.version)
          .map((e) => e.topic),
        json_schema: entry.json_schema,
      };
    },
  );
}
