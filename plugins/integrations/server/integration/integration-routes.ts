import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  attributeError,
  notFound,
  resourceDocument,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { Dispatcher } from '../delivery/dispatcher.js';
import { checkWebhookUrl, UrlRefused } from '../delivery/url-guard.js';
import { can } from '../permissions.js';
import { dataMapping, integration, integrationRun, integrationRunStep, type IntegrationDefinition } from '../tables.js';
import { jsonValue, type IntegrationRunner } from './runner.js';

/**
 * Integrations (spec: generic resource 'integration', list, get, create, delete; attributes name,
 * author, definition, category, events, status read-only, messages, date_created; related
 * data_mappings, steps). Each run is recorded step by step; a failed step files an exception and can
 * be retried, from the run or from the exceptions queue, and the run goes on from there.
 */
const tags = ['integrations'];
const security = [{ bearer: [] }];
const TYPE = 'integration';

const mappingName = z
  .string()
  .trim()
  .min(1, 'This field is required.')
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'Use letters, digits, dots, dashes, colons or underscores.');
const stepSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      name: z.string().trim().min(1).max(100),
      type: z.literal('map'),
      from: mappingName,
      to: mappingName,
    }),
    z.strictObject({
      name: z.string().trim().min(1).max(100),
      type: z.literal('http'),
      url: z.string().url().max(2000),
    }),
  ],
  { error: "A step's type is 'map' (from, to: a published data mapping) or 'http' (url)." },
);
/** The definition's JSON schema, checked at the boundary (docs/integrations.md, "Integrations"). */
export const definitionSchema = z.strictObject({
  steps: z.array(stepSchema).min(1, 'An integration needs at least one step.').max(20),
});
const nameValue = z.string().trim().min(1, 'This field is required.').max(200);
const categoryValue = z.string().trim().max(100);
/** Event prefixes, as a subscription's: `*`, a module (`claims`), or a longer topic prefix. */
const eventsValue = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'An event prefix cannot be empty.')
      .max(200)
      .regex(/^(\*|[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*)$/, {
        error: "An event prefix is '*', a module (claims) or a topic prefix (claims.claim).",
      }),
  )
  .max(50);
const createBody = resourceDocument(TYPE, {
  name: nameValue,
  category: categoryValue.optional(),
  events: eventsValue.optional(),
  definition: definitionSchema,
});
const patchBody = resourceDocument(
  TYPE,
  {
    name: nameValue.optional(),
    category: categoryValue.optional(),
    events: eventsValue.optional(),
    definition: definitionSchema.optional(),
  },
  { id: 'required' },
);
const idParams = z.object({ id: z.uuid({ error: 'Not an integration id.' }) });
const runParams = z.object({
  id: z.uuid({ error: 'Not an integration id.' }),
  runId: z.uuid({ error: 'Not a run id.' }),
});

type Row = typeof integration.$inferSelect;
type RunRow = typeof integrationRun.$inferSelect;
type StepRow = typeof integrationRunStep.$inferSelect;

/** The newest outbox row: an integration's events start runs from the events after it. */
const outboxHead = sql`(select coalesce(max(id), 0) from core.event_outbox)`;

/** An http step's URL passes the webhook URL check at save time (and again at send time). */
async function checkStepUrls(definition: IntegrationDefinition, allowPrivate: boolean): Promise<void> {
  for (const [index, step] of definition.steps.entries()) {
    if (step.type !== 'http') continue;
    try {
      await checkWebhookUrl(step.url, allowPrivate);
    } catch (error) {
      if (error instanceof UrlRefused) throw attributeError(`definition/steps/${index}/url`, error.message);
      throw error;
    }
  }
}

const presentStep = (step: StepRow) => ({
  position: step.position + 1,
  name: step.name,
  type: step.type,
  status: step.status,
  input: step.input,
  output: step.output,
  error: step.error,
  attempts: step.attempts,
  started_at: step.startedAt.toISOString(),
  finished_at: step.finishedAt?.toISOString() ?? null,
});

const presentRun = (run: RunRow, steps: StepRow[]) => ({
  type: 'integration-run',
  id: run.id,
  attributes: {
    status: run.status,
    trigger: run.trigger,
    event_id: run.eventId,
    triggered_by: run.triggeredBy,
    input: run.input,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    steps: steps
      .filter((s) => s.runId === run.id)
      .sort((a, b) => a.position - b.position)
      .map(presentStep),
  },
});

// Hand-written, not a resource declaration: status, messages and the data_mappings relationship are computed from the latest run and the definition's steps, and an events change restarts from the outbox head.
export function integrationRoutes(
  router: AtriumRouter,
  context: ServerPluginContext,
  runner: IntegrationRunner,
  dispatcher: Dispatcher,
): void {
  const { db } = context;
  const find = async (id: string) => {
    const [row] = await db.select().from(integration).where(eq(integration.id, id));
    if (!row) throw notFound(`integration ${id} not found.`);
    return row;
  };
  /** Attributes with the read-only status and messages of the latest run, and related mappings. */
  const present = async (rows: Row[]) => {
    const ids = rows.map((r) => r.id);
    const latest = ids.length
      ? (
          await db.execute<{ integration_id: string; id: string; status: string }>(sql`
            select distinct on (integration_id) integration_id, id, status from integrations.integration_run
             where integration_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
             order by integration_id, started_at desc`)
        ).rows
      : [];
    const failures = latest.length
      ? await db
          .select({ runId: integrationRunStep.runId, error: integrationRunStep.error, name: integrationRunStep.name })
          .from(integrationRunStep)
          .where(
            and(
              inArray(
                integrationRunStep.runId,
                latest.map((l) => l.id),
              ),
              eq(integrationRunStep.status, 'failed'),
            ),
          )
      : [];
    const mappings = await db
      .select({ id: dataMapping.id, from: dataMapping.from, to: dataMapping.to, version: dataMapping.version })
      .from(dataMapping)
      .where(eq(dataMapping.status, 'published'))
      .orderBy(desc(dataMapping.version));
    return rows.map((row) => {
      const last = latest.find((l) => l.integration_id === row.id);
      const related = row.definition.steps.flatMap((step) => {
        if (step.type !== 'map') return [];
        const found = mappings.find((m) => m.from === step.from && m.to === step.to);
        return found ? [{ type: 'mapping', id: found.id }] : [];
      });
      return {
        type: TYPE,
        id: row.id,
        attributes: {
          name: row.name,
          author: row.author,
          definition: row.definition,
          category: row.category,
          events: row.events,
          status: last?.status ?? 'never run',
          messages: failures.filter((f) => f.runId === last?.id).map((f) => `${f.name}: ${f.error}`),
          date_created: row.createdAt.toISOString(),
        },
        relationships: {
          data_mappings: { data: related },
          steps: { meta: { count: row.definition.steps.length } },
        },
      };
    });
  };

  router.get(
    '/integrations/integrations',
    {
      config: { jsonapi: true, access: can('integration', 'read') },
      schema: { summary: 'Integrations, newest first.', tags, security },
    },
    async () => {
      const rows = await db.select().from(integration).orderBy(desc(integration.createdAt));
      return { data: await present(rows), meta: { count: rows.length } };
    },
  );

  router.get(
    '/integrations/integrations/:id',
    {
      config: { jsonapi: true, access: can('integration', 'read') },
      schema: { summary: 'One integration.', tags, security, params: idParams },
    },
    async (request) => ({ data: (await present([await find(request.params.id)]))[0] }),
  );

  router.post(
    '/integrations/integrations',
    {
      config: { jsonapi: true, access: can('integration', 'create') },
      schema: {
        summary: 'Creates an integration; its definition is checked against the schema.',
        tags,
        security,
        body: createBody,
      },
    },
    async (request, reply) => {
      const input = request.body.data.attributes;
      if (!input?.name) throw attributeError('name', 'This field is required.');
      if (!input.definition) throw attributeError('definition', 'This field is required.');
      await checkStepUrls(input.definition, runner.allowPrivate);
      const [row] = await db
        .insert(integration)
        .values({
          name: input.name,
          author: request.principal.username,
          category: input.category ?? '',
          events: input.events ?? [],
          definition: input.definition,
          startOutboxId: outboxHead,
        })
        .returning();
      // With events to listen to, the dispatcher (idle with nothing to do) looks again now.
      if (row!.events.length > 0) dispatcher.kick();
      reply.status(201);
      return { data: (await present([row!]))[0] };
    },
  );

  router.patch(
    '/integrations/integrations/:id',
    {
      config: { jsonapi: true, access: can('integration', 'update') },
      schema: {
        summary:
          'Changes an integration: name, category, events (runs start from the events after the change) or definition.',
        tags,
        security,
        params: idParams,
        body: patchBody,
      },
    },
    async (request) => {
      const existing = await find(request.params.id);
      const input = request.body.data.attributes ?? {};
      if (input.definition) await checkStepUrls(input.definition, runner.allowPrivate);
      const eventsChanged =
        input.events !== undefined && JSON.stringify(input.events) !== JSON.stringify(existing.events);
      const [row] = await db
        .update(integration)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.category !== undefined ? { category: input.category } : {}),
          ...(input.definition !== undefined ? { definition: input.definition } : {}),
          // Changed events apply to the events committed from now on, never to older ones.
          ...(eventsChanged ? { events: input.events, startOutboxId: outboxHead } : {}),
          updatedAt: new Date(),
        })
        .where(eq(integration.id, existing.id))
        .returning();
      if (eventsChanged && row!.events.length > 0) dispatcher.kick();
      return { data: (await present([row!]))[0] };
    },
  );

  router.delete(
    '/integrations/integrations/:id',
    {
      config: { jsonapi: true, access: can('integration', 'delete') },
      schema: { summary: 'Deletes an integration with its runs.', tags, security, params: idParams },
    },
    async (request, reply) => {
      await find(request.params.id);
      await db.delete(integration).where(eq(integration.id, request.params.id));
      reply.status(204);
      return reply.send();
    },
  );

  router.get(
    '/integrations/integrations/:id/runs',
    {
      config: { access: can('integration', 'read') },
      schema: {
        summary: "An integration's runs, newest first, each with its steps.",
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      await find(request.params.id);
      const runs = await db
        .select()
        .from(integrationRun)
        .where(eq(integrationRun.integrationId, request.params.id))
        .orderBy(desc(integrationRun.startedAt))
        .limit(100);
      const steps = runs.length
        ? await db
            .select()
            .from(integrationRunStep)
            .where(
              inArray(
                integrationRunStep.runId,
                runs.map((r) => r.id),
              ),
            )
        : [];
      return { data: runs.map((run) => presentRun(run, steps)), meta: { count: runs.length } };
    },
  );

  const answerRun = async (runId: string) => {
    const [run] = await db.select().from(integrationRun).where(eq(integrationRun.id, runId));
    const steps = await db.select().from(integrationRunStep).where(eq(integrationRunStep.runId, runId));
    return { data: presentRun(run!, steps) };
  };

  router.post(
    '/integrations/integrations/:id/runs',
    {
      config: { access: can('integration', 'execute') },
      schema: {
        summary: 'Runs the integration on `input` now; answers the run with its steps.',
        tags,
        security,
        params: idParams,
        body: z.strictObject({ input: z.unknown() }),
      },
    },
    async (request, reply) => {
      const row = await find(request.params.id);
      const input = request.body.input ?? null;
      const [run] = await db
        .insert(integrationRun)
        .values({
          integrationId: row.id,
          trigger: 'manual',
          input: jsonValue(input),
          triggeredBy: request.principal.username,
        })
        .returning();
      await runner.runFrom(run!, row.definition, 0, input);
      reply.status(201);
      return answerRun(run!.id);
    },
  );

  router.post(
    '/integrations/integrations/:id/runs/:runId/retry',
    {
      config: { access: can('integration', 'execute') },
      schema: {
        summary: 'Retries the failed step of a run with the input it had, and goes on from there.',
        tags,
        security,
        params: runParams,
      },
    },
    async (request) => {
      await find(request.params.id);
      const [run] = await db
        .select({ id: integrationRun.id })
        .from(integrationRun)
        .where(and(eq(integrationRun.id, request.params.runId), eq(integrationRun.integrationId, request.params.id)));
      if (!run) throw notFound(`run ${request.params.runId} not found.`);
      await runner.retry(run.id);
      return answerRun(run.id);
    },
  );
}
