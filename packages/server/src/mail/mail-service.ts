import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  ApiError,
  isMailAddress,
  MAIL_LIMITS,
  MAIL_NOT_CONFIGURED,
  type Database,
  type JobDefinition,
  type MailMessage,
  type MailRecord,
  type MailService,
  type MailStatus,
  type Queryable,
} from '@atrium/sdk/server';
import { mailAttachment, mailOutbox } from '../core/tables.js';
import type { MailConfig } from './mail-config.js';
import { createSmtpSender, isTransientSmtpError, smtpErrorText, type SmtpSender } from './smtp.js';
import { transactionSql } from './transaction-sql.js';

/** The job that sends one outbox row; its data is `{ id }`. */
export const MAIL_SEND_JOB = 'core-mail-send';
/** Longest wait between two attempts, however many came before. */
const MAX_RETRY_DELAY_SECONDS = 3600;
/** A row left `sending` this long belonged to a process that died mid-send. */
const STALE_SENDING_MINUTES = 10;

/** The part of the job queue the mail service uses; `db` creates the job in a transaction. */
export interface MailJobQueue {
  send(
    name: string,
    data: object,
    options?: { startAfter?: Date; db?: ReturnType<typeof transactionSql> },
  ): Promise<string | null>;
}

export interface PlatformMail {
  /** What plugins get as `context.mail`. */
  service: MailService;
  /** The sending job, registered with the plugins' jobs. */
  jobs: JobDefinition[];
  /** Where workers run: re-schedules what a restart or a newly configured server left waiting. */
  resume(): Promise<void>;
  close(): void;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

const pointerError = (pointer: string, detail: string) => new ApiError(400, detail, { source: { pointer } });

/** Checks a message before anything is stored; the pointers name the MailMessage field. */
function validate(message: MailMessage): void {
  if (!message.plugin?.trim()) throw pointerError('/plugin', 'Name the plugin the mail belongs to.');
  if (!message.createdBy?.trim()) throw pointerError('/createdBy', 'Name who sends the mail.');
  const lists = { to: message.to ?? [], cc: message.cc ?? [], bcc: message.bcc ?? [] };
  if (lists.to.length === 0) throw pointerError('/to', 'Add at least one recipient.');
  for (const [field, addresses] of Object.entries(lists)) {
    addresses.forEach((address, index) => {
      if (typeof address !== 'string' || !isMailAddress(address))
        throw pointerError(`/${field}/${index}`, `'${String(address)}' is not a valid e-mail address.`);
    });
  }
  if (lists.to.length + lists.cc.length + lists.bcc.length > MAIL_LIMITS.recipients)
    throw pointerError('/to', `A mail may have at most ${MAIL_LIMITS.recipients} recipients.`);
  if (message.replyTo && !isMailAddress(message.replyTo))
    throw pointerError('/replyTo', `'${message.replyTo}' is not a valid e-mail address.`);
  const subject = message.subject ?? '';
  if (!subject.trim()) throw pointerError('/subject', 'Enter a subject.');
  if (/[\r\n]/.test(subject)) throw pointerError('/subject', 'The subject must be one line.');
  if (subject.length > MAIL_LIMITS.subjectLength)
    throw pointerError('/subject', `The subject is longer than ${MAIL_LIMITS.subjectLength} characters.`);
  if (!message.text?.trim() && !message.html?.trim()) throw pointerError('/text', 'Enter the message.');
  for (const field of ['text', 'html'] as const) {
    if ((message[field]?.length ?? 0) > MAIL_LIMITS.bodyLength)
      throw pointerError(`/${field}`, `The message is longer than ${MAIL_LIMITS.bodyLength} characters.`);
  }
  const attachments = message.attachments ?? [];
  if (attachments.length > MAIL_LIMITS.attachments)
    throw pointerError('/attachments', `A mail may have at most ${MAIL_LIMITS.attachments} attachments.`);
  let total = 0;
  attachments.forEach((attachment, index) => {
    const name = attachment.filename ?? '';
    if (!name.trim() || name.length > 255 || /[\r\n]/.test(name))
      throw pointerError(`/attachments/${index}/filename`, 'An attachment needs a file name of one line.');
    total += attachment.content.byteLength;
  });
  if (total > MAIL_LIMITS.attachmentBytes)
    throw pointerError(
      '/attachments',
      `The attachments come to more than ${MAIL_LIMITS.attachmentBytes / 1024 / 1024} MB, too large for one mail.`,
    );
}

function retryDelaySeconds(config: MailConfig, attempts: number): number {
  return Math.min(config.retryDelaySeconds * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_SECONDS);
}

/**
 * The platform mail service: an outbox table in the core schema, a pg-boss job that sends each row
 * over SMTP, retries with exponential backoff on transient failures. See docs/mail.md.
 */
export function createPlatformMail(options: {
  db: Database;
  jobs: MailJobQueue;
  log: FastifyBaseLogger;
  config: MailConfig;
}): PlatformMail {
  const { db, jobs, log, config } = options;
  let sender: SmtpSender | null = null;
  const smtp = () => (sender ??= createSmtpSender(config.smtpUrl!));
  const configured = !!config.smtpUrl;

  async function records(rows: OutboxRow[], on: Queryable): Promise<MailRecord[]> {
    if (rows.length === 0) return [];
    const files = await on
      .select({
        id: mailAttachment.id,
        mailId: mailAttachment.mailId,
        filename: mailAttachment.filename,
        contentType: mailAttachment.contentType,
        size: mailAttachment.size,
        reference: mailAttachment.reference,
      })
      .from(mailAttachment)
      .where(
        inArray(
          mailAttachment.mailId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(mailAttachment.mailId), asc(mailAttachment.position));
    return rows.map((row) => ({
      id: row.id,
      plugin: row.plugin,
      reference: row.reference,
      from: row.fromAddress,
      to: row.toAddresses,
      cc: row.ccAddresses,
      bcc: row.bccAddresses,
      replyTo: row.replyTo,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
      attachments: files
        .filter((f) => f.mailId === row.id)
        .map(({ id, filename, contentType, size, reference }) => ({ id, filename, contentType, size, reference })),
      status: row.status as MailStatus,
      attempts: row.attempts,
      lastError: row.lastError,
      nextAttemptAt: row.nextAttemptAt,
      providerMessageId: row.providerMessageId,
      createdBy: row.createdBy,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      sentAt: row.sentAt,
    }));
  }

  const service: MailService = {
    configured,
    async enqueue(tx, message) {
      validate(message);
      const [row] = await tx
        .insert(mailOutbox)
        .values({
          plugin: message.plugin,
          reference: message.reference ?? null,
          toAddresses: message.to.map((a) => a.trim()),
          ccAddresses: (message.cc ?? []).map((a) => a.trim()),
          bccAddresses: (message.bcc ?? []).map((a) => a.trim()),
          replyTo: message.replyTo?.trim() || null,
          subject: message.subject.trim(),
          textBody: message.text ?? null,
          htmlBody: message.html ?? null,
          status: 'queued',
          // Kept, never dropped: the note says why it waits, and resume() sends it once SMTP_URL is set.
          lastError: configured ? null : MAIL_NOT_CONFIGURED,
          createdBy: message.createdBy,
        })
        .returning();
      const attachments = message.attachments ?? [];
      if (attachments.length) {
        await tx.insert(mailAttachment).values(
          attachments.map((a, position) => ({
            mailId: row!.id,
            position,
            filename: a.filename.trim(),
            contentType: a.contentType || 'application/octet-stream',
            size: a.content.byteLength,
            content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
            reference: a.reference ?? null,
          })),
        );
      }
      if (configured) await jobs.send(MAIL_SEND_JOB, { id: row!.id }, { db: transactionSql(tx) });
      return (await records([row!], tx))[0]!;
    },
    async list(filter, on = db) {
      const rows = await on
        .select()
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.plugin, filter.plugin),
            filter.reference === undefined
              ? undefined
              : filter.reference === null
                ? isNull(mailOutbox.reference)
                : eq(mailOutbox.reference, filter.reference),
          ),
        )
        .orderBy(desc(mailOutbox.id))
        .limit(500);
      return records(rows, on);
    },
    async get(id, on = db) {
      const rows = await on.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
      return (await records(rows, on))[0] ?? null;
    },
    async retry(tx, id) {
      const [current] = await tx.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1).for('update');
      if (!current) return null;
      if (current.status !== 'failed' || current.nextAttemptAt)
        throw new ApiError(409, 'Only a mail that failed and is not tried again any more can be sent again.', {
          code: 'mail_not_failed',
        });
      const [row] = await tx
        .update(mailOutbox)
        .set({
          status: 'queued',
          // A fresh round of attempts; the count of earlier ones is kept in the log, not here.
          attempts: 0,
          lastError: configured ? null : MAIL_NOT_CONFIGURED,
          updatedAt: new Date(),
        })
        .where(eq(mailOutbox.id, id))
        .returning();
      if (configured) await jobs.send(MAIL_SEND_JOB, { id }, { db: transactionSql(tx) });
      return (await records([row!], tx))[0]!;
    },
  };

  /** One attempt at one mail. SMTP failures are recorded on the row, not thrown. */
  async function deliver(id: number): Promise<void> {
    if (!configured) {
      await db
        .update(mailOutbox)
        .set({ lastError: MAIL_NOT_CONFIGURED, updatedAt: new Date() })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')));
      return;
    }
    // Take the row (only one worker can): queued, or failed with a retry that is due.
    const [row] = await db
      .update(mailOutbox)
      .set({
        status: 'sending',
        attempts: sql`${mailOutbox.attempts} + 1`,
        fromAddress: config.from,
        nextAttemptAt: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(mailOutbox.id, id),
          sql`(${mailOutbox.status} = 'queued' or (${mailOutbox.status} = 'failed' and ${mailOutbox.nextAttemptAt} <= now() + interval '1 second'))`,
        ),
      )
      .returning();
    if (!row) return; // sent, given up, or another worker has it
    const files = await db
      .select()
      .from(mailAttachment)
      .where(eq(mailAttachment.mailId, id))
      .orderBy(asc(mailAttachment.position));
    try {
      const info = await smtp().send({
        from: config.from,
        to: row.toAddresses,
        cc: row.ccAddresses,
        bcc: row.bccAddresses,
        replyTo: row.replyTo,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        attachments: files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content })),
      });
      await db
        .update(mailOutbox)
        .set({
          status: 'sent',
          providerMessageId: info.messageId,
          // Some recipients refused while others took it: sent, with a note of who did not.
          lastError: info.rejected.length ? `Refused by the mail server: ${info.rejected.join(', ')}` : null,
          sentAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(mailOutbox.id, id));
      log.info({ mailId: id, plugin: row.plugin, messageId: info.messageId }, 'mail sent');
    } catch (error) {
      const retry = isTransientSmtpError(error) && row.attempts < config.maxAttempts;
      const nextAttemptAt = retry ? new Date(Date.now() + retryDelaySeconds(config, row.attempts) * 1000) : null;
      await db
        .update(mailOutbox)
        .set({ status: 'failed', lastError: smtpErrorText(error), nextAttemptAt, updatedAt: new Date() })
        .where(eq(mailOutbox.id, id));
      if (nextAttemptAt) await jobs.send(MAIL_SEND_JOB, { id }, { startAfter: nextAttemptAt });
      log.warn(
        { mailId: id, plugin: row.plugin, attempts: row.attempts, retryAt: nextAttemptAt, err: error },
        retry ? 'mail not sent, will retry' : 'mail not sent, giving up',
      );
    }
  }

  return {
    service,
    jobs: [
      {
        name: MAIL_SEND_JOB,
        // SMTP failures are handled (and retried) by deliver; pg-boss retries only its own failures.
        retryLimit: 3,
        pollingIntervalSeconds: 2,
        // Queued in the caller's transaction (enqueue, retry): polled, not woken.
        sentInTransactions: true,
        handler: async (data: { id?: unknown }) => {
          if (typeof data.id === 'number') await deliver(data.id);
        },
      },
    ],
    async resume() {
      if (!configured) return;
      // A process that died mid-send: try again (the recipient may get it twice; losing it is worse).
      await db
        .update(mailOutbox)
        .set({ status: 'failed', nextAttemptAt: new Date(), lastError: 'Interrupted while sending.' })
        .where(
          and(
            eq(mailOutbox.status, 'sending'),
            sql`${mailOutbox.updatedAt} < now() - make_interval(mins => ${STALE_SENDING_MINUTES})`,
          ),
        );
      const waiting = await db
        .select({ id: mailOutbox.id, status: mailOutbox.status, nextAttemptAt: mailOutbox.nextAttemptAt })
        .from(mailOutbox)
        .where(
          sql`${mailOutbox.status} = 'queued' or (${mailOutbox.status} = 'failed' and ${mailOutbox.nextAttemptAt} is not null)`,
        )
        .orderBy(asc(mailOutbox.id))
        .limit(1000);
      for (const mail of waiting) {
        // A duplicate of a job still pending is harmless: only one of them can take the row.
        await jobs.send(MAIL_SEND_JOB, { id: mail.id }, mail.nextAttemptAt ? { startAfter: mail.nextAttemptAt } : {});
      }
      if (waiting.length) log.info({ mails: waiting.length }, 'mail outbox resumed');
    },
    close() {
      sender?.close();
    },
  };
}
