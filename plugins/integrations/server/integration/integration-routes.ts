import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  attributeError,
  conflict,
  notFound,
  resourceDocument,
  z,
  type AtriumRouter,
  type ExceptionsQueue,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { DeliverySettings } from '../delivery/settings.js';
import { sendWebhook } from '../delivery/send.js';
import { checkWebhookUrl, UrlRefused } from '../delivery/url-guard.js';
import { evaluateMapping, MappingError } from '../mapping/evaluate.js';
import { can } from '../permissions.js';
import {
  dataMapping,
  integration,
  integrationRun,
  integrationRunStep,
  type IntegrationDefinition,
  type IntegrationStep,
} from '../tables.js';

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
const createBody = resourceDocument(TYPE, {
  name: z.string().trim().min(1, 'This field is required.').max(200),
  category: z.string().trim().max(100).optional(),
  events: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  definition: definitionSchema,
});
const idParams = z.object({ id: z.uuid({ error: 'Not an integration id.' }) });
const runParams = z.object({
  id: z.uuid({ error: 'Not an integration id.' }),
  runId: z.uuid({ error: 'Not a run id.' }),
});

type Row = typeof integration.$inferSelect;
type RunRow = typeof integrationRun.$inferSelect;
type StepRow = typeof integrationRunStep.$inferSelect;

export class IntegrationRunner {
  constructor(
    private readonly context: ServerPluginContext,
    private readonly settings: DeliverySettings,
    private readonly exceptions: () => ExceptionsQueue,
  ) {}

  get allowPrivate(): boolean {
    return this.settings.allowPrivate;
  }

  /** Runs steps from `position` on `input`, recording each; stops at the first failure. */
  async runFrom(run: RunRow, definition: IntegrationDefinition, position: number, input: unknown): Promise<void> {
    const { db } = this.context;
    let current = input;
    for (let index = position; index < definition.steps.length; index++) {
      const step = definition.steps[index]!;
      const startedAt = new Date();
      const outcome = await this.execute(step, current);
      const failed = 'error' in outcome;
      const error = 'error' in outcome ? outcome.error : undefined;
      const output = 'output' in outcome ? outcome.output : undefined;
      await db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(integrationRunStep)
          .where(and(eq(integrationRunStep.runId, run.id), eq(integrationRunStep.position, index)));
        // No bare nulls in the values (drizzle reads a value's constructor): SQL null is spelled out.
        const values = {
          status: failed ? 'failed' : 'succeeded',
          input: jsonValue(current),
          output: failed ? sql`null` : jsonValue(output),
          error: error ?? sql`null`,
          startedAt,
          finishedAt: new Date(),
        };
        const [saved] = existing
          ? await tx
              .update(integrationRunStep)
              .set({ ...values, attempts: existing.attempts + 1 })
              .where(eq(integrationRunStep.id, existing.id))
              .returning()
          : await tx
              .insert(integrationRunStep)
              .values({ runId: run.id, position: index, name: step.name, type: step.type, ...values })
              .returning();
        if (failed) {
          await tx
            .update(integrationRun)
            .set({ status: 'failed', finishedAt: new Date() })
            .where(eq(integrationRun.id, run.id));
          // A retried step that fails again reopens its exception instead of filing another.
          const reopened = await tx.execute(sql`
            update integrations.exception
               set status = 'open', attempts = ${saved!.attempts}, reason = ${`Step ${index + 1} (${step.name}) of a run failed: ${error}`.slice(0, 2000)},
                   updated_at = now()
             where module = 'integrations' and kind = 'integration-step' and reference = ${saved!.id}
               and status in ('open', 'retrying')
            returning id`);
          if (reopened.rows.length > 0) return;
          await this.exceptions().report(tx, {
            module: 'integrations',
            kind: 'integration-step',
            reason: `Step ${index + 1} (${step.name}) of a run failed: ${error}`,
            payload: {
              integration_id: run.integrationId,
              run_id: run.id,
              step: index + 1,
              name: step.name,
              input: current ?? null,
            },
            attempts: saved!.attempts,
            reference: saved!.id,
          });
        } else {
          await resolveStepExceptions(tx, saved!.id);
        }
      });
      if (failed) return;
      current = output;
    }
    await db
      .update(integrationRun)
      .set({ status: 'succeeded', finishedAt: new Date() })
      .where(eq(integrationRun.id, run.id));
  }

  /** Retries the failed step of a run with the input it had, and goes on from there. */
  async retry(runId: string): Promise<void> {
    const { db } = this.context;
    const [row] = await db
      .select({ run: integrationRun, definition: integration.definition })
      .from(integrationRun)
      .innerJoin(integration, eq(integration.id, integrationRun.integrationId))
      .where(eq(integrationRun.id, runId));
    if (!row) throw notFound(`run ${runId} not found.`);
    if (row.run.status !== 'failed') throw conflict(`Only a failed run can be retried; this one is ${row.run.status}.`);
    const [failedStep] = await db
      .select()
      .from(integrationRunStep)
      .where(and(eq(integrationRunStep.runId, runId), eq(integrationRunStep.status, 'failed')));
    if (!failedStep) throw conflict('This run has no failed step.');
    await db.update(integrationRun).set({ status: 'running', finishedAt: null }).where(eq(integrationRun.id, runId));
    await this.runFrom({ ...row.run, status: 'running' }, row.definition, failedStep.position, failedStep.input);
  }

  private async execute(step: IntegrationStep, input: unknown): Promise<{ output: unknown } | { error: string }> {
    if (step.type === 'map') {
      const [mapping] = await this.context.db
        .select()
        .from(dataMapping)
        .where(and(eq(dataMapping.from, step.from), eq(dataMapping.to, step.to), eq(dataMapping.status, 'published')))
        .orderBy(desc(dataMapping.version))
        .limit(1);
      if (!mapping) return { error: `No published mapping from ${step.from} to ${step.to}.` };
      try {
        return { output: (await evaluateMapping(mapping.mapping.expression, input)) ?? null };
      } catch (error) {
        if (error instanceof MappingError) return { error: error.message };
        throw error;
      }
    }
    const result = await sendWebhook({
      url: step.url,
      body: JSON.stringify(input ?? null),
      headers: {},
      allowPrivate: this.settings.allowPrivate,
      timeoutMs: this.settings.timeoutMs,
    });
    if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) return { output: input };
    return {
      error: result.statusCode !== null ? `${step.url} answered ${result.statusCode}.` : `${step.url}: ${result.error}`,
    };
  }
}

/**
 * A value for a jsonb column: JSON null spelled out, and objects as plain JSON (a request body's
 * objects have no prototype, which drizzle's value check cannot read).
 */
const jsonValue = (value: unknown) =>
  value === undefined || value === null ? sql`'null'::jsonb` : (JSON.parse(JSON.stringify(value)) as unknown);

async function resolveStepExceptions(tx: Queryable, stepId: string): Promise<void> {
  await tx.execute(sql`
    update integrations.exception set status = 'resolved', resolved_by = 'system', updated_at = now()
     where module = 'integrations' and kind = 'integration-step' and reference = ${stepId}
       and status in ('open', 'retrying')`);
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

export function integrationRoutes(router: AtriumRouter, context: ServerPluginContext, runner: IntegrationRunner): void {
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
      for (const [index, step] of input.definition.steps.entries()) {
        if (step.type !== 'http') continue;
        try {
          await checkWebhookUrl(step.url, runner.allowPrivate);
        } catch (error) {
          if (error instanceof UrlRefused) throw attributeError(`definition/steps/${index}/url`, error.message);
          throw error;
        }
      }
      const [row] = await db
        .insert(integration)
        .values({
          name: input.name,
          author: request.principal.username,
          category: input.category ?? '',
          events: input.events ?? [],
          definition: input.definition,
        })
        .returning();
      reply.status(201);
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
