import { inArray } from 'drizzle-orm';
import type { Database, JobDefinition, JobQueue, ObjectStorage, ServerPluginContext } from '@atrium/sdk/server';
import { attachment } from '../core/tables.js';

/**
 * The orphan sweep (pg-boss queue `claims-attachment-orphans`): deletes attachment objects a browser
 * uploaded with a ticket that no attachment row points at, once they are older than the grace
 * period — the user uploaded and then closed the form, so nobody will ever register them. Objects
 * the server stored itself (`put`: base64 uploads, demo files) are never candidates; docs/storage.md.
 *
 * There is no cron in the SDK, and none is needed: an orphan can only come from an upload ticket,
 * so issuing a ticket schedules a sweep for after that upload's grace period has passed (at most one
 * per hour, see scheduleOrphanSweep). A sweep covers every orphan old enough, so a lost run is made
 * good by the next one.
 */
export const ATTACHMENT_ORPHANS_JOB = 'claims-attachment-orphans';

/** Every attachment object's key starts so; a registered key must too. */
export const ATTACHMENT_KEY_PREFIX = 'claims/attachments';

/** An unregistered upload is kept this long: the user may still be filling in the form. */
export const ORPHAN_GRACE_MS = 24 * 3600_000;

/**
 * Registering an upload older than this is refused, an hour inside the grace period: a row is then
 * always committed well before a sweep can see its object as old enough, so the sweep never deletes
 * a file in the moment it is being registered.
 */
export const REGISTER_WITHIN_MS = ORPHAN_GRACE_MS - 3600_000;

/** Sweeps scheduled by tickets issued within one such window become a single run. */
const SWEEP_WINDOW_SECONDS = 3600;
/** Keys checked against the table per query. */
const BATCH = 200;

export interface SweepResult {
  /** Ticket uploads old enough to be candidates. */
  checked: number;
  deleted: string[];
}

/**
 * Deletes the old unregistered ticket uploads under the attachments prefix. A key that a row
 * references is kept whatever its age; so is everything younger than the grace period.
 */
export async function sweepAttachmentOrphans(
  context: Pick<ServerPluginContext, 'log'> & { db: Database; storage: ObjectStorage },
  now: Date = new Date(),
): Promise<SweepResult> {
  const { db, storage, log } = context;
  const result: SweepResult = { checked: 0, deleted: [] };
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const keys = batch;
    batch = [];
    const referenced = new Set(
      (
        await db.select({ key: attachment.storageKey }).from(attachment).where(inArray(attachment.storageKey, keys))
      ).map((row) => row.key),
    );
    for (const key of keys) {
      if (referenced.has(key)) continue;
      try {
        if (await storage.delete(key)) result.deleted.push(key);
      } catch (error) {
        // One object that cannot be removed must not stop the rest; the next sweep tries again.
        log.warn({ err: error, storageKey: key }, 'orphaned attachment object not deleted');
      }
    }
  };
  const createdBefore = new Date(now.getTime() - ORPHAN_GRACE_MS);
  for await (const object of storage.list(ATTACHMENT_KEY_PREFIX, { createdBefore })) {
    if (!object.viaUploadTicket) continue;
    result.checked++;
    batch.push(object.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  if (result.deleted.length > 0 || result.checked > 0) {
    log.info({ checked: result.checked, deleted: result.deleted.length }, 'attachment orphan sweep');
  }
  return result;
}

export const attachmentOrphansJob: JobDefinition = {
  name: ATTACHMENT_ORPHANS_JOB,
  // Runs are a day away from being scheduled; nobody waits for them.
  pollingIntervalSeconds: 60,
  retryLimit: 2,
  handler: async (_data, context) => {
    await sweepAttachmentOrphans(context);
  },
};

/**
 * Called when a ticket is issued: a sweep after the ticket's upload has outlived the grace period.
 * pg-boss's `singletonSeconds` folds every request of one hour into one run (the SDK's JobQueue type
 * names only the common options; the platform queue passes the rest to pg-boss). A failure to
 * schedule is logged, never the ticket's problem: a later ticket's sweep covers this upload too.
 */
export async function scheduleOrphanSweep(
  context: Pick<ServerPluginContext, 'jobs' | 'log'>,
  ticketExpiresAt: Date,
): Promise<void> {
  const send = context.jobs.send as (
    name: string,
    data: object,
    options: Parameters<JobQueue['send']>[2] & { singletonSeconds: number },
  ) => Promise<string | null>;
  try {
    await send.call(
      context.jobs,
      ATTACHMENT_ORPHANS_JOB,
      {},
      {
        singletonKey: 'sweep',
        singletonSeconds: SWEEP_WINDOW_SECONDS,
        // A minute past the moment the last upload of this window can be swept.
        startAfter: new Date(ticketExpiresAt.getTime() + ORPHAN_GRACE_MS + (SWEEP_WINDOW_SECONDS + 60) * 1000),
      },
    );
  } catch (error) {
    context.log.warn({ err: error }, 'attachment orphan sweep not scheduled');
  }
}
