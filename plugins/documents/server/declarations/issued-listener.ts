import { eq, sql } from 'drizzle-orm';
import type { BackgroundWork, ServerPluginContext } from '@atrium/sdk/server';
import { POLICY_DECLARATIONS_SOURCE } from '../../shared/services.js';
import { eventCursor } from '../tables.js';
import { declarationsService } from './declarations-service.js';

export const POLICY_ISSUED_TOPIC = 'policies.policy.issued';
const CURSOR = 'policy-issued';
const BATCH = 50;

export interface IssuedPass {
  /** Events read this pass. */
  read: number;
  /** Declarations produced (or found already produced). */
  produced: number;
  /** Events whose declarations failed (logged; the first get-dec-file-id request tries again). */
  failed: number;
}

/**
 * One pass of the `policies.policy.issued` listener: reads the outbox after the cursor, asks the
 * policies module for each policy's first-revision declarations request (POLICY_DECLARATIONS_SOURCE)
 * and produces the declarations through the same service get-dec-file-id uses — one production
 * document per revision, so the policy screen's request later answers this one. The cursor row is
 * locked for the pass, so several processes never work the same events; each event runs in a
 * savepoint, so one that fails (no dec page, a template that does not render) is logged and skipped.
 * The first pass starts at the end of the outbox: policies issued before documents listened get their
 * declarations on the first request, as before.
 */
export async function produceIssuedDeclarations(context: ServerPluginContext): Promise<IssuedPass> {
  const source = context.optionalService(POLICY_DECLARATIONS_SOURCE);
  const pass: IssuedPass = { read: 0, produced: 0, failed: 0 };
  if (!source) return pass;
  const declarations = declarationsService(context);
  await context.db.transaction(async (tx) => {
    await tx
      .insert(eventCursor)
      .values({
        name: CURSOR,
        lastOutboxId: sql`(select coalesce(max(id), 0) from core.event_outbox)`,
      })
      .onConflictDoNothing();
    const [cursor] = await tx.select().from(eventCursor).where(eq(eventCursor.name, CURSOR)).for('update');
    const events = await tx.execute<{
      id: string | number;
      data: { policy_id?: unknown };
      triggering_user: string;
    }>(sql`
      select id, data, triggering_user from core.event_outbox
      where topic = ${POLICY_ISSUED_TOPIC} and id > ${cursor!.lastOutboxId}
      order by id limit ${BATCH}`);
    let last = cursor!.lastOutboxId;
    for (const event of events.rows) {
      pass.read += 1;
      last = Number(event.id);
      const policyId = typeof event.data.policy_id === 'string' ? event.data.policy_id : null;
      if (!policyId) continue;
      try {
        const file = await tx.transaction(async (savepoint) => {
          const request = await source.declarationsRequestFor(savepoint, {
            policyId,
            createdBy: event.triggering_user,
          });
          return request ? declarations.declarationsFor(savepoint, request) : null;
        });
        if (file && file.fileId !== null) pass.produced += 1;
        else if (file) context.log.info({ policyId, detail: file.detail }, 'No declarations on issue');
      } catch (error) {
        pass.failed += 1;
        context.log.warn({ err: error, policyId }, 'Declarations on issue failed; the first request tries again');
      }
    }
    if (last !== cursor!.lastOutboxId) {
      await tx
        .update(eventCursor)
        .set({ lastOutboxId: last, updatedAt: new Date() })
        .where(eq(eventCursor.name, CURSOR));
    }
  });
  return pass;
}

/** The listener's poll (ATRIUM_DOCUMENTS_ISSUED_POLL_MS, default 2 s), where jobs are worked. */
export function issuedListener(context: ServerPluginContext): BackgroundWork {
  const configured = Number(process.env.ATRIUM_DOCUMENTS_ISSUED_POLL_MS);
  const pollMs = configured > 0 ? configured : 2_000;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = produceIssuedDeclarations(context)
      .catch((error: unknown) => context.log.error({ err: error }, 'Declarations on issue: the pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs).unref();
      });
  };
  let timer = setTimeout(tick, pollMs).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
