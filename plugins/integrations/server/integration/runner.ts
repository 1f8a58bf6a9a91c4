import { and, desc, eq, sql } from 'drizzle-orm';
import { conflict, notFound, type ExceptionsQueue, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import type { DeliverySettings } from '../delivery/settings.js';
import { sendWebhook } from '../delivery/send.js';
import { evaluateMapping, MappingError } from '../mapping/evaluate.js';
import {
  dataMapping,
  integration,
  integrationRun,
  integrationRunStep,
  type IntegrationDefinition,
  type IntegrationStep,
} from '../tables.js';

type RunRow = typeof integrationRun.$inferSelect;

/**
 * Runs an integration's steps one after another, recording each (integration_run_step). The first
 * failure stops the run and files an exception (`integration-step`); a retry runs that step again
 * with its recorded input and goes on from there. Map steps evaluate in a mapping worker thread.
 */
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
export const jsonValue = (value: unknown) =>
  value === undefined || value === null ? sql`'null'::jsonb` : (JSON.parse(JSON.stringify(value)) as unknown);

async function resolveStepExceptions(tx: Queryable, stepId: string): Promise<void> {
  await tx.execute(sql`
    update integrations.exception set status = 'resolved', resolved_by = 'system', updated_at = now()
     where module = 'integrations' and kind = 'integration-step' and reference = ${stepId}
       and status in ('open', 'retrying')`);
}
