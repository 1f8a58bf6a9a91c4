import { createHash } from 'node:crypto';
import { startTestMailServer, type TestMailServer } from '@atrium/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import documentsPlugin from '../server/plugin.js';
import { SAMPLE_POLICY } from '../shared/data-points.js';

/**
 * Print and e-mail of production documents: the print queue's states and the moves between them, and
 * e-mail through the platform mail service to a real SMTP server in the test, the PDF attached.
 */
let smtp: TestMailServer;
let server: AccessTestServer;
let author: Caller;
let adjuster: Caller;
let agent: Caller;
beforeAll(async () => {
  smtp = await startTestMailServer();
  server = await startAccessServer([documentsPlugin], {
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Atrium <documents@carrier.test>' },
  });
  author = server.as('author@atrium.test');
  adjuster = server.as('adjuster@atrium.test');
  agent = server.as('agent@agency.test', {
    attributes: { contact_id: 'CON-AGENT-ALEX', agency_id: 'CON-AGENCY-HARBOUR' },
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A fresh declarations document of the demo template, for the agent's own policy. */
async function newDocument() {
  const list = await expectStatus(
    author.send('GET', '/api/documents/templates/', { headers: { accept: 'application/vnd.api+json' } }),
    200,
  );
  const dec = list.data.find(
    (t: { attributes: { name: string } }) => t.attributes.name === 'Homeowners declarations page',
  );
  return expectStatus(
    adjuster.post('/api/documents/production-documents/', {
      template_id: Number(dec.id),
      document_date: '2026-03-01',
      data: SAMPLE_POLICY,
      record: {
        type: 'policy',
        id: 'P-1',
        agent_contact_id: 'CON-AGENT-ALEX',
        agency_contact_id: 'CON-AGENCY-HARBOUR',
      },
    }),
    201,
  );
}
const printState = (caller: Caller, id: number, state: string) =>
  caller.post(`/api/documents/production-documents/${id}/print-state/`, { state });

describe('print states', () => {
  it('moves a document onto the print queue, to printed, and back on the queue to print again', async () => {
    const doc = await newDocument();
    expect(doc).toMatchObject({
      print_state: 'not_printed',
      title: 'Homeowners declarations page (2026-03-01)',
      record: { type: 'policy', id: 'P-1', label: `Policy ${SAMPLE_POLICY.policy.number}` },
    });

    const early = await expectStatus(printState(adjuster, doc.id, 'printed'), 409);
    expect(early.errors[0].detail).toBe(
      `Production document ${doc.id} is not printed; it cannot be marked printed before it is on the print queue.`,
    );
    const queued = await expectStatus(printState(adjuster, doc.id, 'queued'), 200);
    expect(queued).toMatchObject({ print_state: 'queued', print_state_by: 'adjuster@atrium.test' });
    expect(Date.parse(queued.print_state_at)).not.toBeNaN();
    const again = await expectStatus(printState(adjuster, doc.id, 'queued'), 409);
    expect(again.errors[0].detail).toBe(`Production document ${doc.id} is on the print queue already.`);

    const queue = await expectStatus(adjuster.get('/api/documents/production-documents/?print_state=queued'), 200);
    expect(queue.results.map((d: { id: number }) => d.id)).toContain(doc.id);
    expect(queue.results.every((d: { print_state: string }) => d.print_state === 'queued')).toBe(true);

    await expectStatus(printState(author, doc.id, 'printed'), 200);
    const back = await expectStatus(printState(adjuster, doc.id, 'not_printed'), 409);
    expect(back.errors[0].detail).toBe(
      `Production document ${doc.id} is printed; it cannot be taken off the print queue.`,
    );
    const reprint = await expectStatus(printState(adjuster, doc.id, 'queued'), 200);
    expect(reprint.print_state).toBe('queued');
    const off = await expectStatus(printState(adjuster, doc.id, 'not_printed'), 200);
    expect(off.print_state).toBe('not_printed');
    const read = await expectStatus(adjuster.get(`/api/documents/production-documents/${doc.id}/`), 200);
    expect(read).toMatchObject({ print_state: 'not_printed', email_state: null });
  });

  it('refuses a bad state with 400, readers who may not change documents with 403, and keeps scope', async () => {
    const doc = await newDocument();
    const bad = await expectStatus(printState(adjuster, doc.id, 'shredded'), 400);
    expect(JSON.stringify(bad)).toContain("The print state must be 'not_printed', 'queued' or 'printed'.");
    await expectStatus(adjuster.get('/api/documents/production-documents/?print_state=lost'), 400);
    // The agent reads their own policy's document but may not print or e-mail it.
    await expectStatus(agent.get(`/api/documents/production-documents/${doc.id}/`), 200);
    await expectStatus(printState(agent, doc.id, 'queued'), 403);
    await expectStatus(
      agent.post(`/api/documents/production-documents/${doc.id}/emails/`, { to: ['a@example.test'] }),
      403,
    );
    await expectStatus(printState(adjuster, 999_999, 'queued'), 404);
  });
});

describe('e-mail', () => {
  it('e-mails the PDF through the mail service and shows the delivery on the document', async () => {
    const doc = await newDocument();
    const pdf = Buffer.from(
      await (await adjuster.get(`/api/documents/production-documents/${doc.id}/pdf/`)).arrayBuffer(),
    );
    const queued = await expectStatus(
      adjuster.post(`/api/documents/production-documents/${doc.id}/emails/`, {
        to: ['jordan.avery@example.test'],
        message: 'Your declarations are attached.',
      }),
      201,
    );
    expect(queued).toMatchObject({
      to: ['jordan.avery@example.test'],
      subject: 'Homeowners declarations page (2026-03-01)',
      attachments: ['Homeowners declarations page (2026-03-01).pdf'],
      created_by: 'adjuster@atrium.test',
    });
    const arrived = await smtp.waitFor((m) => m.envelope.to.includes('jordan.avery@example.test'));
    expect(arrived.parsed.subject).toBe('Homeowners declarations page (2026-03-01)');
    expect(arrived.parsed.text).toContain('Your declarations are attached.');
    const [attached] = arrived.parsed.attachments;
    expect(attached?.contentType).toBe('application/pdf');
    expect(createHash('sha256').update(attached!.content).digest('hex')).toBe(
      createHash('sha256').update(pdf).digest('hex'),
    );

    await expect
      .poll(
        async () =>
          (await expectStatus(adjuster.get(`/api/documents/production-documents/${doc.id}/`), 200)).email_state,
      )
      .toBe('sent');
    const mails = await expectStatus(adjuster.get(`/api/documents/production-documents/${doc.id}/emails/`), 200);
    expect(mails).toMatchObject({ mail_configured: true, count: 1 });
    expect(mails.results[0]).toMatchObject({ status: 'sent', to: ['jordan.avery@example.test'] });
    const listed = await expectStatus(adjuster.get('/api/documents/production-documents/?record_type=policy'), 200);
    expect(listed.results.find((d: { id: number }) => d.id === doc.id)).toMatchObject({
      email_state: 'sent',
      emailed_to: ['jordan.avery@example.test'],
    });
    // The agent may read the document's mails (it is in their book), not send one.
    await expectStatus(agent.get(`/api/documents/production-documents/${doc.id}/emails/`), 200);
  });

  it('refuses bad addresses with a pointer and a missing recipient in words', async () => {
    const doc = await newDocument();
    const bad = await expectStatus(
      adjuster.post(`/api/documents/production-documents/${doc.id}/emails/`, { to: ['not an address'] }),
      400,
    );
    expect(JSON.stringify(bad)).toContain('Enter a valid e-mail address, like name@example.com.');
    expect(JSON.stringify(bad)).toContain('/to/0');
    const none = await expectStatus(
      adjuster.post(`/api/documents/production-documents/${doc.id}/emails/`, { to: [] }),
      400,
    );
    expect(JSON.stringify(none)).toContain('Add at least one recipient.');
    const line = await expectStatus(
      adjuster.post(`/api/documents/production-documents/${doc.id}/emails/`, {
        to: ['a@example.test'],
        subject: 'Two\nlines',
      }),
      400,
    );
    expect(JSON.stringify(line)).toContain('The subject must be one line.');
  });
});
