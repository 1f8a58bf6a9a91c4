import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import accessPlugin from '@atrium/plugin-access/server';
import claimsPlugin from '@atrium/plugin-claims/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import linesPlugin from '@atrium/plugin-lines/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import quotePlugin from '@atrium/plugin-quote/server';
import rulesPlugin from '@atrium/plugin-rules/server';
import { as, startTestMailServer, startTestServer, type TestMailServer, type TestServer } from '@atrium/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsPlugin from '../server/plugin.js';
import { CLAIM_ACKNOWLEDGEMENT } from '../server/seed/demo-templates.js';
import { createDemoStateForm, STATE_FORM_NAME } from '../server/seed/demo-state-form.js';

/**
 * Issue 18's remaining paths over HTTP with the modules they join: quote documents made and e-mailed
 * through the platform mail service to a real SMTP server (GET/POST /quote/{number}/documents/), the
 * test-data picker offering real claims and quotes (each module's lookup applying the caller's
 * scope), and the form-fields and services routes.
 */
type Json = Record<string, any>;
let server: TestServer;
let smtp: TestMailServer;

beforeAll(async () => {
  smtp = await startTestMailServer();
  server = await startTestServer({
    plugins: [
      identityPlugin,
      accessPlugin,
      contactsPlugin,
      linesPlugin,
      rulesPlugin,
      policiesPlugin,
      quotePlugin,
      claimsPlugin,
      documentsPlugin,
    ],
    env: { SMTP_URL: smtp.url, MAIL_RETRY_DELAY_SECONDS: '1' },
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** A demo user's API answering status and parsed body; `jsonapi` sends and accepts JSON:API. */
async function api(user: string, mediaType?: 'jsonapi') {
  const call = await as(server, user, mediaType ? { mediaType } : {});
  const json = async (method: string, url: string, body?: unknown) => {
    const response = await call(method, url, body);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
  };
  return {
    get: (url: string) => json('GET', url),
    post: (url: string, body: unknown) => json('POST', url, body),
    patch: (url: string, body: unknown) => json('PATCH', url, body),
    raw: call,
  };
}

const dir = mkdtempSync(path.join(tmpdir(), 'atrium-quote-doc-'));
const pdfText = (bytes: Buffer) => {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

const send = (attributes: Json) => ({ data: { type: 'quote-document', attributes } });

describe('quote documents', () => {
  it('lists the quote summary and e-mails it as the agent, the PDF attached, through the platform mail', async () => {
    const agent = await api('agent@agency.test', 'jsonapi');
    const listed = await agent.get('/api/quote/Q-900001/documents/');
    expect(listed.status).toBe(200);
    const summary = listed.body.data.find((d: Json) => d.attributes.name === 'Quote summary');
    expect(summary).toMatchObject({ type: 'quote-document', attributes: { description: expect.any(String) } });
    expect(listed.body.meta).toMatchObject({ mail_configured: true });

    const to = `insured-${Date.now().toString(36)}@example.test`;
    const made = await agent.post('/api/quote/Q-900001/documents/', send({ name: 'Quote summary', email: to }));
    expect(made.status).toBe(201);
    const doc = made.body.data.attributes.document;
    expect(doc).toMatchObject({
      title: 'Quote summary (2026-03-01)',
      emailed_to: [to],
      created_by: 'agent@agency.test',
    });
    expect(['queued', 'sending', 'sent']).toContain(doc.email_state);

    const mail = await smtp.waitFor((m) => m.envelope.to.includes(to));
    expect(mail.parsed.subject).toBe('Quote summary (2026-03-01)');
    const attachment = mail.parsed.attachments[0]!;
    expect(attachment.filename).toBe('Quote summary (2026-03-01).pdf');
    const text = pdfText(attachment.content);
    expect(text).toContain('Quote Q-900001');
    expect(text).toContain('Homeowners');

    // The listing shows it sent; the document is the agent's to read (the quote's book), PDF included.
    await expect
      .poll(async () => {
        const again = await agent.get('/api/quote/Q-900001/documents/');
        return again.body.data.find((d: Json) => d.attributes.name === 'Quote summary').attributes.document;
      })
      .toMatchObject({ id: doc.id, email_state: 'sent', emailed_to: [to] });
    const pdf = await agent.raw('GET', doc.pdf_url, undefined, { accept: 'application/pdf' });
    expect(pdf.status).toBe(200);
  });

  it('refuses roles without quote permission, quotes outside the book and bad input', async () => {
    const adjuster = await api('adjuster@atrium.test', 'jsonapi');
    expect((await adjuster.get('/api/quote/Q-900001/documents/')).status).toBe(403);
    expect((await adjuster.post('/api/quote/Q-900001/documents/', send({ name: 'Quote summary' }))).status).toBe(403);
    const agent = await api('agent@agency.test', 'jsonapi');
    expect((await agent.get('/api/quote/Q-999999/documents/')).status).toBe(404);

    const bad = await agent.post('/api/quote/Q-900001/documents/', send({ name: 'Quote summary', email: 'nope' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({
      detail: 'Enter a valid e-mail address, like name@example.com.',
      source: { pointer: '/data/attributes/email' },
    });
    expect((await agent.post('/api/quote/Q-900001/documents/', send({ email: 'a@b.test' }))).status).toBe(400);
    const wrongType = await agent.post('/api/quote/Q-900001/documents/', {
      data: { type: 'billing', attributes: { name: 'Quote summary' } },
    });
    // JSON:API: a type the endpoint does not take is a conflict.
    expect(wrongType.status).toBe(409);
    const unknown = await agent.post('/api/quote/Q-900001/documents/', send({ name: 'Policy jacket' }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].detail).toBe('There is no quote document named "Policy jacket".');
  });
});

describe('the test-data picker with real claims and quotes', () => {
  it('previews the claim letter with a real claim, within the caller’s claims scope', async () => {
    const admin = await api('admin@atrium.test');
    const claims = await admin.get('/api/documents/data-points/records/?subject=claim&search=');
    expect(claims.status).toBe(200);
    expect(claims.body.count).toBeGreaterThan(0);
    const [first] = claims.body.results;
    expect(first).toMatchObject({ type: 'claim', id: expect.stringMatching(/^\d+$/) });
    const number = (first.label as string).split(' · ')[0]!;
    const preview = await admin.post('/api/documents/previews/', {
      source: CLAIM_ACKNOWLEDGEMENT,
      record: { type: 'claim', id: first.id },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.svg).toContain('<svg');
    expect(preview.body.unresolved_paths).not.toContain('claim.number');
    // Searching by the number finds it; a claim that does not exist is named.
    const found = await admin.get(`/api/documents/data-points/records/?subject=claim&search=${number}`);
    expect(found.body.results.map((r: Json) => r.id)).toContain(first.id);
    const missing = await admin.post('/api/documents/previews/', {
      source: CLAIM_ACKNOWLEDGEMENT,
      record: { type: 'claim', id: '999999' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].detail).toBe('Claim 999999 not found.');

    // The lookup applies the caller's scope: the author holds no claims:claim read, so no claim is offered.
    const author = await api('author@atrium.test');
    const theirs = await author.get('/api/documents/data-points/records/?subject=claim&search=');
    expect(theirs.status).toBe(200);
    expect(theirs.body.results).toEqual([]);
    const hidden = await author.post('/api/documents/previews/', {
      source: CLAIM_ACKNOWLEDGEMENT,
      record: { type: 'claim', id: first.id },
    });
    expect(hidden.status).toBe(422);

    // Readers do not preview source; a subject that is not one is a 400.
    const adjuster = await api('adjuster@atrium.test');
    expect((await adjuster.get('/api/documents/data-points/records/?subject=claim')).status).toBe(403);
    const bad = await admin.get('/api/documents/data-points/records/?subject=invoice');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("The subject must be 'policy', 'claim' or 'quote'.");
  });

  it('offers quotes for quote templates and lists the quote data points', async () => {
    const admin = await api('admin@atrium.test');
    const quotes = await admin.get('/api/documents/data-points/records/?subject=quote&search=Q-90000');
    expect(quotes.body.results.map((r: Json) => r.id)).toContain('Q-900001');
    const points = await admin.get('/api/documents/data-points/?subject=quote');
    expect(points.body.results.map((p: Json) => p.path)).toEqual(
      expect.arrayContaining(['quote.number', 'quote.premium', 'quote.insured.name', 'quote.risks[].label']),
    );
    const preview = await admin.post('/api/documents/previews/', {
      source: '#data.quote.number, #data.quote.line',
      record: { type: 'quote', id: 'Q-900001' },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.unresolved_paths).not.toContain('quote.number');
  });
});

describe('form fields and services', () => {
  it('lists, reads and maps form fields with their edition, and refuses what it should', async () => {
    const adjuster = await api('adjuster@atrium.test', 'jsonapi');
    const all = await adjuster.get('/api/documents/form-fields/');
    expect(all.status).toBe(200);
    const policyNumber = all.body.data.find((f: Json) => f.attributes.name === 'policy_number');
    expect(policyNumber).toMatchObject({
      type: 'documents-form-field',
      attributes: {
        mapping: { source: 'data_point', path: 'policy.number' },
        edition: 'ME HO-D (01/26)',
        kind: 'text',
        required: true,
        form_status: 'published',
      },
      relationships: { imported_document: { data: { type: 'documents-imported-document' } } },
    });
    const one = await adjuster.get(`/api/documents/form-fields/${encodeURIComponent(policyNumber.id)}/`);
    expect(one.body.data.id).toBe(policyNumber.id);
    expect((await adjuster.get('/api/documents/form-fields/abc/')).status).toBe(400);
    expect((await adjuster.get('/api/documents/form-fields/9999:x/')).status).toBe(404);
    expect((await adjuster.get('/api/documents/form-fields/?filter[imported_document]=zero')).status).toBe(400);

    // A published form is frozen; readers may not map; agents do not read templates at all.
    const author = await api('author@atrium.test', 'jsonapi');
    const mapTo = (id: string, mapping: unknown) =>
      author.patch(`/api/documents/form-fields/${encodeURIComponent(id)}/`, {
        data: { type: 'documents-form-field', id, attributes: { mapping } },
      });
    const frozen = await mapTo(policyNumber.id, { source: 'ignored' });
    expect(frozen.status).toBe(409);
    expect(
      (
        await adjuster.patch(`/api/documents/form-fields/${encodeURIComponent(policyNumber.id)}/`, {
          data: { type: 'documents-form-field', attributes: { mapping: null } },
        })
      ).status,
    ).toBe(403);
    expect((await (await api('agent@agency.test', 'jsonapi')).get('/api/documents/form-fields/')).status).toBe(403);

    // A draft edition of the form, imported with its edition, is mapped field by field.
    const plain = await api('author@atrium.test');
    const folders = await author.get('/api/documents/folders/');
    const folderId = Number(folders.body.data.find((f: Json) => f.attributes.name === 'Homeowners').id);
    const imported = await plain.post('/api/documents/imported-documents/', {
      name: `${STATE_FORM_NAME} draft ${Date.now().toString(36)}`,
      subject: 'policy',
      folder_id: folderId,
      file_name: 'me-ho-d.pdf',
      edition: 'ME HO-D (07/26)',
      content_base64: (await createDemoStateForm()).toString('base64'),
    });
    expect(imported.status).toBe(201);
    expect(imported.body.edition).toBe('ME HO-D (07/26)');
    const draftId = `${imported.body.id}:policy_number`;
    const mapped = await mapTo(draftId, { source: 'data_point', path: 'policy.number' });
    expect(mapped.status).toBe(200);
    expect(mapped.body.data.attributes).toMatchObject({
      mapping: { source: 'data_point', path: 'policy.number' },
      edition: 'ME HO-D (07/26)',
      unmapped: false,
    });
    const form = await plain.get(`/api/documents/imported-documents/${imported.body.id}/`);
    expect(form.body.mapping.policy_number).toEqual({ source: 'data_point', path: 'policy.number' });
    const wrong = await mapTo(draftId, { source: 'data_point', path: 'claim.number' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0]).toMatchObject({
      detail: '"claim.number" is not a data point of a policy.',
      source: { pointer: '/data/attributes/mapping' },
    });
    expect((await mapTo(draftId, { source: 'somewhere' })).status).toBe(400);
    const unmapped = await mapTo(draftId, null);
    expect(unmapped.body.data.attributes).toMatchObject({ mapping: null, unmapped: true });
    const badEdition = await plain.post('/api/documents/imported-documents/', {
      name: 'Two lines',
      subject: 'policy',
      folder_id: folderId,
      file_name: 'x.pdf',
      edition: 'A\nB',
      content_base64: 'AAAA',
    });
    expect(badEdition.status).toBe(400);
  });

  it('lists the services documents offers other modules, to template readers', async () => {
    const adjuster = await api('adjuster@atrium.test', 'jsonapi');
    const services = await adjuster.get('/api/documents/services/');
    expect(services.status).toBe(200);
    expect(services.body.data.map((s: Json) => s.id)).toEqual(['documents.declarations', 'documents.quote-documents']);
    // The catalogue lists exactly the services the plugin provides.
    expect(documentsPlugin.provides?.services?.map((s) => s.ref.id)).toEqual(services.body.data.map((s: Json) => s.id));
    expect(services.body.data[1].attributes).toMatchObject({
      name: 'Render quote documents',
      ref: 'DOCUMENT_QUOTE_DOCUMENTS',
      used_by: ['quote'],
    });
    expect((await (await api('agent@agency.test', 'jsonapi')).get('/api/documents/services/')).status).toBe(403);
  });
});
