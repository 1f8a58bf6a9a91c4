import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import documentsPlugin from '../server/plugin.js';
import { createDemoStateForm, STATE_FORM_MAPPING, STATE_FORM_NAME } from '../server/seed/demo-state-form.js';
import type { ImportedDocument } from '../shared/forms.js';

/**
 * Imported AcroForm PDFs on a seeded database: upload, the fields pdf-lib lists, the mapping and its
 * checks, publishing blocked while a required field is unmapped, and the filled, flattened PDF read
 * back with poppler's pdftotext.
 */
let server: AccessTestServer;
let author: Caller;
let adjuster: Caller;
let agent: Caller;
beforeAll(async () => {
  server = await startAccessServer([documentsPlugin]);
  author = server.as('author@atrium.test');
  adjuster = server.as('adjuster@atrium.test');
  agent = server.as('agent@agency.test', {
    attributes: { contact_id: 'CON-AGENT-ALEX', agency_id: 'CON-AGENCY-HARBOUR' },
  });
});
afterAll(async () => server?.close());

async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
const detail = (body: { errors: { detail: string }[] }) => body.errors[0]!.detail;

const dir = mkdtempSync(path.join(tmpdir(), 'atrium-forms-'));
function pdfText(base64: string): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, Buffer.from(base64, 'base64'));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function homeownersFolderId(): Promise<number> {
  const list = await expectStatus(author.get('/api/documents/imported-documents/'), 200);
  return list.results.find((d: ImportedDocument) => d.name === STATE_FORM_NAME).folder_id;
}

describe('the demo state form', () => {
  it('lists every field with its kind and fills, flattens and dates the PDF from its mapping', async () => {
    const list = await expectStatus<{ results: ImportedDocument[] }>(
      author.get('/api/documents/imported-documents/'),
      200,
    );
    const demo = list.results.find((d) => d.name === STATE_FORM_NAME)!;
    expect(demo).toMatchObject({ status: 'published', subject: 'policy', page_count: 1, unmapped_required: [] });
    expect(Object.fromEntries(demo.fields.map((f) => [f.name, f.kind]))).toEqual({
      policy_number: 'text',
      insured_name: 'text',
      premises: 'text',
      effective_date: 'text',
      premium: 'text',
      producer_signature: 'text',
      payment_plan: 'radio',
      county: 'dropdown',
      fraud_notice_acknowledged: 'checkbox',
    });
    expect(demo.fields.find((f) => f.name === 'payment_plan')).toMatchObject({
      required: true,
      options: ['Annual', 'Semiannual', 'Quarterly'],
    });
    expect(demo.mapping).toEqual(STATE_FORM_MAPPING);

    const preview = await expectStatus(
      adjuster.post(`/api/documents/imported-documents/${demo.id}/preview/`, { date: '2026-03-01' }),
      200,
    );
    expect(preview.unresolved_paths).toEqual([]);
    const text = pdfText(preview.pdf_base64);
    expect(text).toContain('HO-2026-000123');
    expect(text).toContain('Jordan Avery');
    expect(text).toContain('1284.50');
    expect(text).toContain('Cumberland');
    const pdf = await PDFDocument.load(Buffer.from(preview.pdf_base64, 'base64'), { updateMetadata: false });
    expect(pdf.getForm().getFields()).toHaveLength(0);
    expect(pdf.getCreationDate()?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(pdf.getModificationDate()?.toISOString()).toBe('2026-03-01T00:00:00.000Z');

    // The same data and date give the same bytes; the date is the document's, not the clock's.
    const again = await expectStatus(
      adjuster.post(`/api/documents/imported-documents/${demo.id}/preview/`, { date: '2026-03-01' }),
      200,
    );
    expect(again.pdf_base64).toBe(preview.pdf_base64);

    const missing = await expectStatus(
      author.post(`/api/documents/imported-documents/${demo.id}/preview/`, {
        data: { policy: { number: 'HO-9' } },
        date: '2026-03-01',
      }),
      200,
    );
    expect(missing.unresolved_paths).toEqual([
      'policy.insured.address',
      'policy.insured.name',
      'policy.premium',
      'policy.term_start',
    ]);
    const blank = await author.get(`/api/documents/imported-documents/${demo.id}/pdf/`);
    expect(blank.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await blank.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('keeps a published form frozen and agents out', async () => {
    const list = await expectStatus(author.get('/api/documents/imported-documents/'), 200);
    const demo = list.results.find((d: ImportedDocument) => d.name === STATE_FORM_NAME);
    const frozen = await expectStatus(
      author.patch(`/api/documents/imported-documents/${demo.id}/`, { mapping: {} }),
      409,
    );
    expect(detail(frozen)).toBe(
      `"${STATE_FORM_NAME}" is published and cannot be changed; import the form again for a new edition.`,
    );
    await expectStatus(author.delete(`/api/documents/imported-documents/${demo.id}/`), 409);
    await expectStatus(agent.get('/api/documents/imported-documents/'), 403);
  });
});

describe('importing a form', () => {
  it('uploads, maps, refuses to publish with a required field unmapped, then publishes', async () => {
    const folderId = await homeownersFolderId();
    const content = (await createDemoStateForm()).toString('base64');
    const upload = {
      name: 'Test disclosure',
      subject: 'policy',
      folder_id: folderId,
      file_name: 'test.pdf',
      content_base64: content,
    };
    await expectStatus(adjuster.post('/api/documents/imported-documents/', upload), 403);
    const created = await expectStatus<ImportedDocument>(
      author.post('/api/documents/imported-documents/', upload),
      201,
    );
    expect(created).toMatchObject({ status: 'draft', mapping: {}, page_count: 1 });
    expect(created.unmapped_required).toEqual([
      'policy_number',
      'insured_name',
      'premises',
      'effective_date',
      'payment_plan',
    ]);
    const clash = await expectStatus(author.post('/api/documents/imported-documents/', upload), 409);
    expect(detail(clash)).toBe('A document named "Test disclosure" is already in this folder.');

    const refused = await expectStatus(
      author.post(`/api/documents/imported-documents/${created.id}/publish/`, {}),
      422,
    );
    expect(detail(refused)).toBe(
      '"Test disclosure" cannot be published: required fields "policy_number", "insured_name", "premises", "effective_date", "payment_plan" are not mapped.',
    );

    const patch = (mapping: unknown) => author.patch(`/api/documents/imported-documents/${created.id}/`, { mapping });
    expect(detail(await expectStatus(patch({ nope: { source: 'ignored' } }), 422))).toBe(
      'The PDF has no field named "nope".',
    );
    expect(detail(await expectStatus(patch({ premises: { source: 'data_point', path: 'claim.number' } }), 422))).toBe(
      '"claim.number" is not a data point of a policy.',
    );
    expect(
      detail(await expectStatus(patch({ premises: { source: 'data_point', path: 'policy.coverages' } }), 422)),
    ).toBe('"policy.coverages" is not a data point of a policy.');
    expect(detail(await expectStatus(patch({ payment_plan: { source: 'constant', value: 'Monthly' } }), 422))).toBe(
      '"Monthly" is not one of the options of the field "payment_plan" (Annual, Semiannual, Quarterly).',
    );
    expect(
      detail(await expectStatus(patch({ fraud_notice_acknowledged: { source: 'constant', value: 'yes' } }), 422)),
    ).toBe("The checkbox \"fraud_notice_acknowledged\" takes 'checked' or 'unchecked'.");
    await expectStatus(patch({ premises: { source: 'formula' } }), 400);

    // Ignoring a required field does not map it.
    const partial = await expectStatus<ImportedDocument>(
      patch({ ...STATE_FORM_MAPPING, payment_plan: { source: 'ignored' } }),
      200,
    );
    expect(partial.unmapped_required).toEqual(['payment_plan']);
    await expectStatus(author.post(`/api/documents/imported-documents/${created.id}/publish/`, {}), 422);

    const full = await expectStatus<ImportedDocument>(
      patch({ ...STATE_FORM_MAPPING, payment_plan: { source: 'constant', value: 'Quarterly' } }),
      200,
    );
    expect(full.unmapped_required).toEqual([]);
    await expectStatus(adjuster.post(`/api/documents/imported-documents/${created.id}/publish/`, {}), 403);
    const published = await expectStatus(
      author.post(`/api/documents/imported-documents/${created.id}/publish/`, {}),
      200,
    );
    expect(published).toMatchObject({ status: 'published', published_by: 'author@atrium.test' });
  });

  it('deletes a draft and answers 422 in words for a file that is not a fillable PDF', async () => {
    const folderId = await homeownersFolderId();
    const base = { name: 'Bad', subject: 'policy', folder_id: folderId, file_name: 'bad.pdf' };
    const notPdf = await expectStatus(
      author.post('/api/documents/imported-documents/', {
        ...base,
        content_base64: Buffer.from('hello').toString('base64'),
      }),
      422,
    );
    expect(detail(notPdf)).toBe('The file is not a PDF.');
    const plain = await PDFDocument.create();
    plain.addPage();
    const noFields = await expectStatus(
      author.post('/api/documents/imported-documents/', {
        ...base,
        content_base64: Buffer.from(await plain.save()).toString('base64'),
      }),
      422,
    );
    expect(detail(noFields)).toBe('The PDF has no form fields to fill; import a PDF with an AcroForm.');
    const missingFolder = await expectStatus(
      author.post('/api/documents/imported-documents/', {
        ...base,
        folder_id: 99999,
        content_base64: (await createDemoStateForm()).toString('base64'),
      }),
      422,
    );
    expect(detail(missingFolder)).toBe('Folder 99999 not found.');

    const draft = await expectStatus(
      author.post('/api/documents/imported-documents/', {
        ...base,
        name: 'Draft to delete',
        content_base64: (await createDemoStateForm()).toString('base64'),
      }),
      201,
    );
    await expectStatus(author.delete(`/api/documents/imported-documents/${draft.id}/`), 204);
    await expectStatus(author.get(`/api/documents/imported-documents/${draft.id}/`), 404);
  });
});
