import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { as, startTestMailServer, type TestMailServer } from '@atrium/sdk/testing';
import { doc, pointersOf, startClaimsServer, type Caller, type ClaimsTestServer } from '../core/claims-test-server.js';

/**
 * Claim outbound e-mail over HTTP with a real SMTP server (smtp-server) behind the platform mail
 * service: compose with a claim attachment, the message arrives, the list shows it sent, the audit
 * log has it; permissions (403), the record check (404) and bad input (400 with pointers).
 */
const ROLE = 'Own Claims Mailer';
const BASE_LENGTH = '/api/claims'.length;
const RESTRICTED = 'underwriter@atrium.test';

let smtp: TestMailServer;
let server: ClaimsTestServer;
let adjuster: Caller;
let underwriter: Caller;
let agent: Caller;
let restricted: Caller;
/** A seeded claim with a stored attachment, the attachment and its bytes; a claim of someone else. */
let claim: { id: string; number: string; attachmentId: string; fileName: string; bytes: Buffer };
let otherClaim: { id: string; attachmentId: string };
let ownClaimId: string;

interface EmailResource {
  id: string;
  attributes: {
    to: string[];
    cc: string[];
    subject: string;
    body: string;
    status: string;
    attempts: number;
    last_error: string | null;
    attachments: { filename: string; size: number; attachment_id: string | null }[];
  };
}

async function emailsOf(caller: Caller, claimId: string) {
  const response = await caller('GET', `/claims/${claimId}/emails/`);
  expect(response.status).toBe(200);
  return (await response.json()) as { data: EmailResource[]; meta: { mail_configured: boolean } };
}

beforeAll(async () => {
  smtp = await startTestMailServer();
  server = await startClaimsServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'claims@carrier.test' } });
  const db = server.atrium.database.db;
  // Seeded claims with attachments (stored like any upload): the bytes are read from storage.
  const rows = (
    await db.execute(sql`
      select c.id::text as id, c.number, a.id::text as attachment_id, a.name
      from claims.attachment a
      join claims.attachment_folder f on f.id = a.folder_id
      join claims.claim c on c.number = f.reference_id
      order by c.id limit 2`)
  ).rows as { id: string; number: string; attachment_id: string; name: string }[];
  expect(rows.length).toBe(2);
  claim = {
    id: rows[0]!.id,
    number: rows[0]!.number,
    attachmentId: rows[0]!.attachment_id,
    fileName: rows[0]!.name,
    bytes: Buffer.from(`First notice of loss for ${rows[0]!.number}.\n`, 'utf8'),
  };
  otherClaim = { id: rows[1]!.id, attachmentId: rows[1]!.attachment_id };
  await db.execute(
    sql`update claims.party set email = 'insured.party@example.test' where claim_id = ${Number(claim.id)} and display_number = 1`,
  );

  adjuster = await server.as('adjuster@atrium.test');
  // The underwriter holds the restricted role too (below), so each caller names the role it acts in.
  underwriter = await server.as('underwriter@atrium.test', { 'x-effective-role': 'Underwriter' });
  agent = await server.as('agent@agency.test');

  // A role that may mail only about claims it is the primary adjuster of.
  await server.grantRole(ROLE, RESTRICTED, {
    name: 'Mail about own claims',
    statements: [
      {
        sid: 'own',
        effect: 'allow',
        // Update too: a primary adjuster must be a claims user, one whose role may update claims.
        actions: ['read', 'update'],
        resources: ['claims:claim'],
        conditions: [{ attribute: 'record.primary_adjuster', operator: 'eq', value: { ref: 'user.username' } }],
      },
      { sid: 'mail', effect: 'allow', actions: ['read', 'create'], resources: ['claims:email'] },
    ],
  });
  const created = await adjuster(
    'POST',
    '/claims/',
    doc('claim', { loss_description: 'Hail', primary_adjuster: RESTRICTED }),
  );
  expect(created.status).toBe(201);
  ownClaimId = ((await created.json()) as { data: { id: string } }).data.id;
  restricted = await server.as(RESTRICTED, { 'x-effective-role': ROLE });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('claim outbound e-mail', () => {
  it('sends a mail with a claim attachment over SMTP, lists it as sent and audits it', async () => {
    const before = await emailsOf(adjuster, claim.id);
    expect(before.meta.mail_configured).toBe(true);

    const response = await adjuster(
      'POST',
      `/claims/${claim.id}/emails/`,
      doc('claim-email', {
        to: ['insured.party@example.test'],
        cc: ['broker@example.test'],
        subject: `Claim ${claim.number}: your first notice of loss`,
        body: 'Dear insured,\n\nplease find your first notice of loss attached.',
        attachment_ids: [claim.attachmentId],
      }),
    );
    expect(response.status).toBe(201);
    const created = (await response.json()) as { data: EmailResource };
    expect(created.data.attributes).toMatchObject({
      to: ['insured.party@example.test'],
      cc: ['broker@example.test'],
      status: 'queued',
      attachments: [{ filename: claim.fileName, size: claim.bytes.length, attachment_id: claim.attachmentId }],
    });

    const arrived = await smtp.waitFor((m) => m.parsed.subject === `Claim ${claim.number}: your first notice of loss`);
    expect(arrived.envelope.to.sort()).toEqual(['broker@example.test', 'insured.party@example.test']);
    expect(arrived.parsed.from?.text).toBe('claims@carrier.test');
    expect(arrived.parsed.text?.trim()).toBe('Dear insured,\n\nplease find your first notice of loss attached.');
    expect(arrived.parsed.attachments.map((a) => a.filename)).toEqual([claim.fileName]);
    expect(arrived.parsed.attachments[0]!.content.equals(claim.bytes)).toBe(true);

    let listed: EmailResource | undefined;
    for (let i = 0; i < 200 && listed?.attributes.status !== 'sent'; i++) {
      if (i) await new Promise((resolve) => setTimeout(resolve, 100));
      listed = (await emailsOf(adjuster, claim.id)).data.find((e) => e.id === created.data.id);
    }
    expect(listed?.attributes).toMatchObject({ status: 'sent', attempts: 1, last_error: null });

    const audit = await adjuster('GET', `/audit-log/?filter[claim_id]=${claim.id}&filter[entity_type]=email`);
    expect(audit.status).toBe(200);
    const entries = ((await audit.json()) as { data: { attributes: Record<string, unknown> }[] }).data;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.attributes).toMatchObject({
      action: 'create',
      entity_id: created.data.id,
      username: 'adjuster@atrium.test',
      after: expect.objectContaining({ to: ['insured.party@example.test'], attachments: [claim.fileName] }),
    });
  });

  it('sends a mail that failed for good again on request, and only that', async () => {
    smtp.refuseNext(1, 550, 'Mailbox unavailable');
    const response = await adjuster(
      'POST',
      `/claims/${claim.id}/emails/`,
      doc('claim-email', { to: ['moved@example.test'], subject: 'Refused first', body: 'Hello' }),
    );
    expect(response.status).toBe(201);
    const id = ((await response.json()) as { data: EmailResource }).data.id;
    let failed: EmailResource | undefined;
    for (let i = 0; i < 200 && failed?.attributes.status !== 'failed'; i++) {
      if (i) await new Promise((resolve) => setTimeout(resolve, 100));
      failed = (await emailsOf(adjuster, claim.id)).data.find((e) => e.id === id);
    }
    expect(failed?.attributes).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed?.attributes.last_error).toContain('Mailbox unavailable');

    // Under another claim the mail does not exist.
    expect((await adjuster('POST', `/claims/${otherClaim.id}/emails/${id}/send-again/`)).status).toBe(404);
    expect((await underwriter('POST', `/claims/${claim.id}/emails/${id}/send-again/`)).status).toBe(403);
    const again = await adjuster('POST', `/claims/${claim.id}/emails/${id}/send-again/`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: EmailResource }).data.attributes.status).toBe('queued');
    await smtp.waitFor((m) => m.parsed.subject === 'Refused first');
    let sent: EmailResource | undefined;
    for (let i = 0; i < 200 && sent?.attributes.status !== 'sent'; i++) {
      if (i) await new Promise((resolve) => setTimeout(resolve, 100));
      sent = (await emailsOf(adjuster, claim.id)).data.find((e) => e.id === id);
    }
    expect(sent?.attributes.status).toBe('sent');
    const twice = await adjuster('POST', `/claims/${claim.id}/emails/${id}/send-again/`);
    expect(twice.status).toBe(409);

    const audit = await adjuster(
      'GET',
      `/audit-log/?filter[claim_id]=${claim.id}&filter[entity_type]=email&filter[entity_id]=${id}`,
    );
    const actions = ((await audit.json()) as { data: { attributes: { action: string } }[] }).data.map(
      (e) => e.attributes.action,
    );
    expect(actions.sort()).toEqual(['create', 'update']);
  });

  it("suggests the claim's parties, and contacts from the third character on", async () => {
    const parties = await adjuster('GET', `/claims/${claim.id}/emails/recipients/`);
    expect(parties.status).toBe(200);
    const partyList = ((await parties.json()) as { data: { attributes: { email: string; source: string } }[] }).data;
    expect(partyList.map((r) => r.attributes)).toContainEqual(
      expect.objectContaining({ email: 'insured.party@example.test', source: 'party' }),
    );
    const contact = (
      (
        await server.atrium.database.db.execute(
          sql`select emails->0->>'address' as email from contacts.contact where jsonb_array_length(emails) > 0 order by number limit 1`,
        )
      ).rows[0] as { email: string }
    ).email;
    const short = await adjuster('GET', `/claims/${claim.id}/emails/recipients/?filter[search]=${contact.slice(0, 2)}`);
    const shortList = ((await short.json()) as { data: { attributes: { source: string } }[] }).data;
    expect(shortList.filter((r) => r.attributes.source === 'contact')).toEqual([]);
    const long = await adjuster('GET', `/claims/${claim.id}/emails/recipients/?filter[search]=${contact.slice(0, 5)}`);
    const longList = ((await long.json()) as { data: { attributes: { email: string; source: string } }[] }).data;
    expect(longList.map((r) => r.attributes)).toContainEqual(
      expect.objectContaining({ email: contact, source: 'contact' }),
    );
  });

  it('refuses callers without the permission (403) and claims the caller may not see (404)', async () => {
    const compose = doc('claim-email', { to: ['someone@example.test'], subject: 'Hello', body: 'Hi' });
    expect((await underwriter('GET', `/claims/${claim.id}/emails/`)).status).toBe(200);
    expect((await underwriter('POST', `/claims/${claim.id}/emails/`, compose)).status).toBe(403);
    expect((await agent('GET', `/claims/${claim.id}/emails/`)).status).toBe(403);

    expect((await adjuster('GET', '/claims/99999999/emails/')).status).toBe(404);
    expect((await adjuster('POST', '/claims/99999999/emails/', compose)).status).toBe(404);
    expect((await adjuster('GET', '/claims/abc/emails/')).status).toBe(404);

    // The restricted role sees its own claim only; another claim is answered like a missing one.
    expect((await restricted('GET', `/claims/${ownClaimId}/emails/`)).status).toBe(200);
    expect((await restricted('GET', `/claims/${claim.id}/emails/`)).status).toBe(404);
    const hidden = await restricted('POST', `/claims/${claim.id}/emails/`, compose);
    expect(hidden.status).toBe(404);
    expect((await restricted('POST', `/claims/${ownClaimId}/emails/`, compose)).status).toBe(201);
  });

  it("lists the claim's attachments to attach, and mailing a file needs claims:attachment read", async () => {
    const attachable = await adjuster('GET', `/claims/${claim.id}/emails/attachments/`);
    expect(attachable.status).toBe(200);
    const files = ((await attachable.json()) as { data: { id: string; attributes: { name: string } }[] }).data;
    expect(files).toContainEqual(expect.objectContaining({ id: claim.attachmentId }));
    expect(files.map((f) => f.id)).not.toContain(otherClaim.attachmentId);

    // The restricted role may mail but not read attachments.
    expect((await restricted('GET', `/claims/${ownClaimId}/emails/attachments/`)).status).toBe(403);
    const withFile = await restricted(
      'POST',
      `/claims/${ownClaimId}/emails/`,
      doc('claim-email', { to: ['a@example.test'], subject: 'File', body: 'Hi', attachment_ids: [claim.attachmentId] }),
    );
    expect(withFile.status).toBe(403);
  });

  it('answers bad input with 400 and a pointer, storing nothing', async () => {
    const count = (await emailsOf(adjuster, claim.id)).data.length;
    const badAddress = await adjuster(
      'POST',
      `/claims/${claim.id}/emails/`,
      doc('claim-email', { to: ['ok@example.test', 'not an address'], subject: 'Hello', body: 'Hi' }),
    );
    expect(badAddress.status).toBe(400);
    expect(await pointersOf(badAddress)).toEqual(['/data/attributes/to/1']);

    const headerInjection = await adjuster(
      'POST',
      `/claims/${claim.id}/emails/`,
      doc('claim-email', { to: ['ok@example.test'], subject: 'Hello\nBcc: evil@example.test', body: 'Hi' }),
    );
    expect(headerInjection.status).toBe(400);
    expect(await pointersOf(headerInjection)).toEqual(['/data/attributes/subject']);

    const noRecipient = await adjuster(
      'POST',
      `/claims/${claim.id}/emails/`,
      doc('claim-email', { to: [], subject: 'Hello', body: 'Hi' }),
    );
    expect(noRecipient.status).toBe(400);
    expect(await pointersOf(noRecipient)).toEqual(['/data/attributes/to']);

    const foreignAttachment = await adjuster(
      'POST',
      `/claims/${claim.id}/emails/`,
      doc('claim-email', {
        to: ['ok@example.test'],
        subject: 'Hello',
        body: 'Hi',
        attachment_ids: [claim.attachmentId, otherClaim.attachmentId],
      }),
    );
    expect(foreignAttachment.status).toBe(400);
    expect(await pointersOf(foreignAttachment)).toEqual(['/data/attributes/attachment_ids/1']);

    expect((await emailsOf(adjuster, claim.id)).data).toHaveLength(count);
  });

  it('answers the classic gateway: claims list, attachments and email_files, in the same record scope', async () => {
    const gateway = async (username: string, method: string, body: unknown, role?: string) => {
      const caller = await as(server, username, { base: '/api', headers: role ? { 'x-effective-role': role } : {} });
      const file = method === 'retrieveClaimsList' ? 'claims.views' : 'core.uploads';
      return caller.post(`/gateway?file=${file}&method=${method}`, body);
    };
    type ClaimsList = { data: { total: number; claims: { id: number; claimNumber: string }[] } };

    const found = await gateway('adjuster@atrium.test', 'retrieveClaimsList', {
      filter: 'number',
      searchString: claim.number,
    });
    expect(found.status).toBe(200);
    const list = (await found.json()) as ClaimsList;
    expect(list.data.claims.map((c) => c.claimNumber)).toEqual([claim.number]);
    expect(list.data.total).toBe(1);
    // The restricted role reads only the claims it is primary adjuster of.
    const own = (await (await gateway(RESTRICTED, 'retrieveClaimsList', { pageSize: 100 }, ROLE)).json()) as ClaimsList;
    expect(own.data.claims.map((c) => String(c.id))).toEqual([ownClaimId]);
    expect((await gateway('adjuster@atrium.test', 'retrieveClaimsList', { filter: 'nope' })).status).toBe(400);

    const files = await gateway('adjuster@atrium.test', 'retrieveAttachments', { referenceId: claim.number });
    expect(files.status).toBe(200);
    const attachments = ((await files.json()) as { data: { attachments: { id: number; name: string; url: string }[] } })
      .data.attachments;
    expect(attachments.map((a) => String(a.id))).toContain(claim.attachmentId);
    const content = await adjuster(
      'GET',
      attachments.find((a) => String(a.id) === claim.attachmentId)!.url.slice(BASE_LENGTH),
    );
    expect(Buffer.from(await content.arrayBuffer()).equals(claim.bytes)).toBe(true);
    // No claims:attachment read for the restricted role; a claim number that does not exist is a 404.
    expect((await gateway(RESTRICTED, 'retrieveAttachments', { referenceId: claim.number }, ROLE)).status).toBe(403);
    expect((await gateway('adjuster@atrium.test', 'retrieveAttachments', { referenceId: 'NO-SUCH' })).status).toBe(404);

    const sent = await gateway('adjuster@atrium.test', 'email_files', {
      referenceId: claim.number,
      attachmentIds: [claim.attachmentId],
      to: ['files@example.test'],
      subject: `Files of ${claim.number}`,
      message: 'The files you asked for.',
    });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ success: true, data: { emailId: expect.any(Number) } });
    const arrived = await smtp.waitFor((m) => m.parsed.subject === `Files of ${claim.number}`);
    expect(arrived.parsed.attachments.map((a) => a.filename)).toEqual([claim.fileName]);
    // Another claim's file, a missing recipient and a claim outside the caller's scope are refused.
    const foreign = await gateway('adjuster@atrium.test', 'email_files', {
      referenceId: claim.number,
      attachmentIds: [otherClaim.attachmentId],
      to: ['files@example.test'],
      subject: 'x',
      message: 'y',
    });
    expect(foreign.status).toBe(400);
    const noOne = await gateway('adjuster@atrium.test', 'email_files', {
      referenceId: claim.number,
      attachmentIds: [claim.attachmentId],
      subject: 'x',
      message: 'y',
    });
    expect(noOne.status).toBe(400);
    const outside = await gateway(
      RESTRICTED,
      'email_files',
      {
        referenceId: claim.number,
        attachmentIds: [claim.attachmentId],
        to: ['a@example.test'],
        subject: 'x',
        message: 'y',
      },
      ROLE,
    );
    expect(outside.status).toBe(404);
  });
});
