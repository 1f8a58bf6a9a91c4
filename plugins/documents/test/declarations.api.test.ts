import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import contactsPlugin from '@atrium/plugin-contacts/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import documentsPlugin from '../server/plugin.js';
import { STATE_FORM_NAME } from '../server/seed/demo-state-form.js';

/**
 * The automatic declarations: policies' get-dec-file-id asks documents' typed service, which renders
 * the line's dec page (settings) and merges the forms the form rules attach, once per revision.
 */
let server: AccessTestServer;
let underwriter: Caller;
let author: Caller;
let adjuster: Caller;
beforeAll(async () => {
  server = await startAccessServer([contactsPlugin, policiesPlugin, documentsPlugin]);
  underwriter = server.as('underwriter@atrium.test');
  author = server.as('author@atrium.test');
  adjuster = server.as('adjuster@atrium.test');
});
afterAll(async () => server?.close());

async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
const dir = mkdtempSync(path.join(tmpdir(), 'atrium-dec-'));
async function pdfText(caller: Caller, url: string): Promise<string> {
  const res = await caller.get(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
async function policies(product: string) {
  const list = await expectStatus(underwriter.get('/api/policies/policies/?page_size=100'), 200);
  return list.results.filter((p: { product_slug?: string; policy_type_name?: string }) =>
    JSON.stringify(p).includes(product),
  );
}

describe('declarations', () => {
  it('produces a homeowners declaration on the first request and answers the same file after', async () => {
    const [home] = await policies('Homeowners');
    expect(home).toBeDefined();
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${home.id}`), 200);
    expect(dec).toMatchObject({ declaration: true, label: 'Declaration', mime_type: 'application/pdf' });
    expect(dec.file_id).toEqual(expect.any(Number));
    expect(dec.url).toBe(`/api/documents/production-documents/${dec.file_id}/pdf/`);
    expect(dec.title).toMatch(/^Homeowners declarations page \(\d{4}-\d{2}-\d{2}\)$/);
    const again = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${home.id}`), 200);
    expect(again.file_id).toBe(dec.file_id);

    const text = await pdfText(underwriter, dec.url);
    expect(text).toContain(home.policy_number ?? home.number);
    const doc = await expectStatus(underwriter.get(`/api/documents/production-documents/${dec.file_id}/`), 200);
    expect(doc).toMatchObject({ purpose: 'declarations', record: { type: 'policy', id: String(home.id) }, forms: [] });
    // The demo Maine form is limited to Maine; the seeded homeowners policies are in New York.
    expect(text).not.toContain('Homeowners Policy Disclosure');
    const rerender = await expectStatus(
      underwriter.post(`/api/documents/production-documents/${dec.file_id}/rerender/`, {}),
      200,
    );
    expect(rerender.identical).toBe(true);
  });

  it('says why there is no file for a line without a dec page', async () => {
    const [auto] = await policies('Personal Auto');
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${auto.id}`), 200);
    expect(dec).toMatchObject({
      file_id: null,
      url: null,
      detail: 'No declarations page is set for the line personal_auto.',
    });
  });

  it('merges the forms the rules attach after the dec page, byte-identically on re-render', async () => {
    const settings = await expectStatus(author.get('/api/documents/settings/declarations/'), 200);
    expect(settings.form_rules).toHaveLength(1);
    await expectStatus(adjuster.put('/api/documents/settings/declarations/', settings), 403);
    const forAll = { ...settings, form_rules: [{ ...settings.form_rules[0], state: null }] };
    await expectStatus(author.put('/api/documents/settings/declarations/', forAll), 200);

    const homes = await policies('Homeowners');
    const other = homes[1];
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${other.id}`), 200);
    const doc = await expectStatus(underwriter.get(`/api/documents/production-documents/${dec.file_id}/`), 200);
    expect(doc.forms).toEqual([STATE_FORM_NAME]);
    expect(doc.page_count).toBe(2);
    const text = await pdfText(underwriter, dec.url);
    expect(text).toContain('Homeowners Policy Declarations');
    expect(text).toContain('State of Maine');
    const number = other.policy_number ?? other.number;
    expect(text.split(number).length - 1).toBeGreaterThanOrEqual(2);
    const rerender = await expectStatus(
      underwriter.post(`/api/documents/production-documents/${dec.file_id}/rerender/`, {}),
      200,
    );
    expect(rerender).toMatchObject({ identical: true });
    await expectStatus(author.put('/api/documents/settings/declarations/', settings), 200);
  });

  it('checks the settings against the templates and forms they name', async () => {
    const settings = await expectStatus(author.get('/api/documents/settings/declarations/'), 200);
    const letter = (await expectStatus(author.get('/api/documents/templates/'), 200)).data.find(
      (t: { attributes: { name: string } }) => t.attributes.name === 'Claim acknowledgement letter',
    );
    const claimTemplate = await expectStatus(
      author.put('/api/documents/settings/declarations/', {
        ...settings,
        declarations: [{ line: 'personal_auto', template_id: Number(letter.id) }],
      }),
      422,
    );
    expect(claimTemplate.errors[0].detail).toBe('"Claim acknowledgement letter" is written for a claim, not a policy.');
    const missing = await expectStatus(
      author.put('/api/documents/settings/declarations/', {
        ...settings,
        form_rules: [{ ...settings.form_rules[0], imported_document_id: 9999 }],
      }),
      422,
    );
    expect(missing.errors[0].detail).toBe('Imported document 9999 not found.');
    await expectStatus(
      author.put('/api/documents/settings/declarations/', {
        ...settings,
        declarations: [{ line: 'Home Owners', template_id: 1 }],
      }),
      400,
    );
  });
});
