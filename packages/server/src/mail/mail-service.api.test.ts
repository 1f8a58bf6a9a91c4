import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  defineServerPlugin,
  MAIL_NOT_CONFIGURED,
  type MailRecord,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { startTestMailServer, startTestServer, type TestMailServer, type TestServer } from '@atrium/sdk/testing';

/**
 * The platform mail service end to end: a plugin enqueues through `context.mail`, the job sends
 * over real SMTP to an smtp-server inside the test, and the outbox row tells what happened.
 */
function capturingPlugin() {
  const holder: { context?: ServerPluginContext } = {};
  const plugin = defineServerPlugin({
    id: 'mailtest',
    routes(_router, context) {
      holder.context = context;
    },
  });
  return { plugin, context: () => holder.context! };
}

async function waitForMail(context: ServerPluginContext, id: number, done: (mail: MailRecord) => boolean) {
  for (let i = 0; i < 300; i++) {
    const mail = await context.mail.get(id);
    if (mail && done(mail)) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Mail ${id} did not reach the expected state: ${JSON.stringify(await context.mail.get(id))}`);
}

const FILE = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));

describe('mail service with an SMTP server', () => {
  let smtp: TestMailServer;
  let server: TestServer;
  let context: () => ServerPluginContext;

  beforeAll(async () => {
    smtp = await startTestMailServer();
    const capture = capturingPlugin();
    context = capture.context;
    server = await startTestServer({
      plugins: [capture.plugin],
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Atrium Claims <claims@carrier.test>',
        MAIL_RETRY_DELAY_SECONDS: '1',
        MAIL_MAX_ATTEMPTS: '3',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('sends a mail enqueued in a transaction, with its attachment byte for byte', async () => {
    const { db, mail } = context();
    expect(mail.configured).toBe(true);
    const queued = await db.transaction((tx) =>
      mail.enqueue(tx, {
        plugin: 'mailtest',
        reference: 'claim-1',
        to: ['adjuster@example.com'],
        cc: ['insured@example.com'],
        bcc: ['audit@example.com'],
        subject: 'Your claim CLM-1',
        text: 'Please find the estimate attached.',
        attachments: [{ filename: 'estimate.bin', contentType: 'application/octet-stream', content: FILE }],
        createdBy: 'adjuster@atrium.test',
      }),
    );
    expect(queued).toMatchObject({ status: 'queued', lastError: null, attempts: 0, reference: 'claim-1' });
    expect(queued.attachments).toEqual([expect.objectContaining({ filename: 'estimate.bin', size: FILE.length })]);

    const arrived = await smtp.waitFor((m) => m.parsed.subject === 'Your claim CLM-1');
    expect(arrived.parsed.text?.trim()).toBe('Please find the estimate attached.');
    expect(arrived.parsed.from?.text).toBe('"Atrium Claims" <claims@carrier.test>');
    expect(arrived.envelope.to.sort()).toEqual(['adjuster@example.com', 'audit@example.com', 'insured@example.com']);
    expect(arrived.parsed.headers.has('bcc')).toBe(false);
    expect(arrived.parsed.attachments).toHaveLength(1);
    expect(arrived.parsed.attachments[0]!.filename).toBe('estimate.bin');
    expect(Buffer.compare(arrived.parsed.attachments[0]!.content, FILE)).toBe(0);

    const sent = await waitForMail(context(), queued.id, (m) => m.status === 'sent');
    expect(sent).toMatchObject({ attempts: 1, lastError: null, from: 'Atrium Claims <claims@carrier.test>' });
    expect(sent.providerMessageId).toBe(arrived.parsed.messageId);
    expect(sent.sentAt).toBeInstanceOf(Date);
    expect((await mail.list({ plugin: 'mailtest', reference: 'claim-1' })).map((m) => m.id)).toEqual([queued.id]);
  });

  it('leaves nothing behind when the transaction rolls back', async () => {
    const { db, mail } = context();
    await expect(
      db.transaction(async (tx) => {
        await mail.enqueue(tx, {
          plugin: 'mailtest',
          reference: 'rolled-back',
          to: ['someone@example.com'],
          subject: 'Never sent',
          text: 'x',
          createdBy: 'tester',
        });
        throw new Error('the write this mail belonged to failed');
      }),
    ).rejects.toThrow('the write this mail belonged to failed');
    expect(await mail.list({ plugin: 'mailtest', reference: 'rolled-back' })).toEqual([]);
    // Nor a send job: every job names a mail that exists.
    const orphans = await db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'core-mail-send'
          and (data->>'id')::int not in (select id from core.mail_outbox)`,
    );
    expect(orphans.rows[0]).toEqual({ n: 0 });
  });

  it('records a transient SMTP failure as failed with the error, then retries and sends', async () => {
    const { db, mail } = context();
    smtp.refuseNext(1, 451, 'Greylisted, try again later');
    const queued = await mail.enqueue(db, {
      plugin: 'mailtest',
      reference: 'retry',
      to: ['retry@example.com'],
      subject: 'Retried mail',
      text: 'second time lucky',
      createdBy: 'tester',
    });
    const failed = await waitForMail(context(), queued.id, (m) => m.attempts === 1 && m.status === 'failed');
    expect(failed.lastError).toContain('Greylisted, try again later');
    expect(failed.nextAttemptAt).toBeInstanceOf(Date);

    const sent = await waitForMail(context(), queued.id, (m) => m.status === 'sent');
    expect(sent).toMatchObject({ attempts: 2, lastError: null, nextAttemptAt: null });
    expect(smtp.received.filter((m) => m.parsed.subject === 'Retried mail')).toHaveLength(1);
  });

  it('gives up at once on a permanent refusal, and after MAIL_MAX_ATTEMPTS on transient ones', async () => {
    const { db, mail } = context();
    smtp.refuseNext(1, 550, 'Mailbox unavailable');
    const refused = await mail.enqueue(db, {
      plugin: 'mailtest',
      to: ['nobody@example.com'],
      subject: 'Refused',
      text: 'x',
      createdBy: 'tester',
    });
    const final = await waitForMail(context(), refused.id, (m) => m.status === 'failed');
    expect(final).toMatchObject({ attempts: 1, nextAttemptAt: null });
    expect(final.lastError).toContain('Mailbox unavailable');

    // Sent again on request (after the mailbox was fixed): a new round of attempts, then sent.
    const again = await db.transaction((tx) => mail.retry(tx, refused.id));
    expect(again).toMatchObject({ status: 'queued', attempts: 0, lastError: null });
    const resent = await waitForMail(context(), refused.id, (m) => m.status === 'sent');
    expect(resent.attempts).toBe(1);
    await smtp.waitFor((m) => m.parsed.subject === 'Refused');
    await expect(db.transaction((tx) => mail.retry(tx, refused.id))).rejects.toMatchObject({ status: 409 });
    expect(await db.transaction((tx) => mail.retry(tx, 999_999))).toBeNull();

    smtp.refuseNext(3, 421, 'Service not available');
    const busy = await mail.enqueue(db, {
      plugin: 'mailtest',
      to: ['busy@example.com'],
      subject: 'Busy',
      text: 'x',
      createdBy: 'tester',
    });
    const gaveUp = await waitForMail(context(), busy.id, (m) => m.status === 'failed' && m.nextAttemptAt === null);
    expect(gaveUp.attempts).toBe(3);
    expect(gaveUp.lastError).toContain('Service not available');
  });

  it('refuses an unsendable message before storing anything, pointing at the field', async () => {
    const { db, mail } = context();
    const attempt = mail.enqueue(db, {
      plugin: 'mailtest',
      reference: 'invalid',
      to: ['ok@example.com', 'not an address'],
      subject: 'Hello',
      text: 'x',
      createdBy: 'tester',
    });
    await expect(attempt).rejects.toBeInstanceOf(ApiError);
    await expect(attempt).rejects.toMatchObject({ status: 400, issues: [{ source: { pointer: '/to/1' } }] });
    await expect(
      mail.enqueue(db, {
        plugin: 'mailtest',
        reference: 'invalid',
        to: ['ok@example.com'],
        subject: 'Two\r\nBcc: evil@example.com',
        text: 'x',
        createdBy: 'tester',
      }),
    ).rejects.toMatchObject({ status: 400, issues: [{ source: { pointer: '/subject' } }] });
    expect(await mail.list({ plugin: 'mailtest', reference: 'invalid' })).toEqual([]);
  });
});

describe('mail service without SMTP_URL', () => {
  let server: TestServer;
  let context: () => ServerPluginContext;

  beforeAll(async () => {
    const capture = capturingPlugin();
    context = capture.context;
    server = await startTestServer({ plugins: [capture.plugin] });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the mail queued with the note that no mail server is configured', async () => {
    const { db, mail } = context();
    expect(mail.configured).toBe(false);
    const queued = await db.transaction((tx) =>
      mail.enqueue(tx, {
        plugin: 'mailtest',
        reference: 'unsent',
        to: ['someone@example.com'],
        subject: 'Kept',
        text: 'kept in the outbox',
        createdBy: 'tester',
      }),
    );
    expect(queued).toMatchObject({ status: 'queued', lastError: MAIL_NOT_CONFIGURED, attempts: 0 });
    expect(MAIL_NOT_CONFIGURED).toBe('not sent: no mail server configured');
    const [listed] = await mail.list({ plugin: 'mailtest', reference: 'unsent' });
    expect(listed).toMatchObject({ id: queued.id, status: 'queued', lastError: MAIL_NOT_CONFIGURED });
  });
});
