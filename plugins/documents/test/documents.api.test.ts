import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import documentsPlugin from '../server/plugin.js';
import { SAMPLE_POLICY } from '../shared/data-points.js';

/**
 * The documents API on a seeded database with the real render pool (child processes): folders and
 * templates (JSON:API), versions, previews, production documents and data points, as the demo roles.
 */
let server: AccessTestServer;
let author: Caller;
let adjuster: Caller;
let agent: Caller;
beforeAll(async () => {
  process.env.ATRIUM_DOCUMENTS_RENDER_TIMEOUT_MS = '3000';
  server = await startAccessServer([documentsPlugin]);
  author = server.as('author@atrium.test');
  adjuster = server.as('adjuster@atrium.test');
  agent = server.as('agent@agency.test', {
    attributes: { contact_id: 'CON-AGENT-ALEX', agency_id: 'CON-AGENCY-HARBOUR' },
  });
});
afterAll(async () => {
  delete process.env.ATRIUM_DOCUMENTS_RENDER_TIMEOUT_MS;
  await server?.close();
});

async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const JSONAPI = { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' };
const jsonapi = (caller: Caller, method: string, path: string, body?: unknown) =>
  caller.send(method, path, { headers: JSONAPI, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

async function templateNamed(name: string): Promise<{ id: string; attributes: Record<string, unknown> }> {
  const list = await expectStatus(jsonapi(author, 'GET', '/api/documents/templates/'), 200);
  const found = list.data.find((t: { attributes: { name: string } }) => t.attributes.name === name);
  expect(found, name).toBeDefined();
  return found;
}

describe('folders and templates', () => {
  it('lists the demo tree with include= and lets an author add a folder and a template', async () => {
    const list = await expectStatus(jsonapi(author, 'GET', '/api/documents/templates/?include=folder'), 200);
    expect(list.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual([
      'Claim acknowledgement letter',
      'Homeowners declarations page',
      'Personal auto declarations page',
      'Quote summary',
    ]);
    expect(list.included.map((f: { attributes: { name: string } }) => f.attributes.name).sort()).toEqual([
      'Auto',
      'Homeowners',
      'Letters',
      'Quotes',
    ]);

    const folder = await expectStatus(
      jsonapi(author, 'POST', '/api/documents/folders/', {
        data: { type: 'documents-folder', attributes: { name: 'Notices' } },
      }),
      201,
    );
    const created = await expectStatus(
      jsonapi(author, 'POST', '/api/documents/templates/', {
        data: {
          type: 'documents-template',
          attributes: { name: 'Cancellation notice', subject: 'policy' },
          relationships: { folder: { data: { type: 'documents-folder', id: folder.data.id } } },
        },
      }),
      201,
    );
    expect(created.data.attributes).toMatchObject({ name: 'Cancellation notice', subject: 'policy', description: '' });
    const clash = await expectStatus(
      jsonapi(author, 'POST', '/api/documents/templates/', {
        data: {
          type: 'documents-template',
          attributes: { name: 'Cancellation notice', subject: 'policy' },
          relationships: { folder: { data: { type: 'documents-folder', id: folder.data.id } } },
        },
      }),
      409,
    );
    expect(JSON.stringify(clash)).toContain('A template named \\"Cancellation notice\\" is already in this folder.');

    const remove = (path: string) => author.send('DELETE', path, { headers: { accept: JSONAPI.accept } });
    // What the /documents screen does: rename (the other attributes stay), delete an empty folder only.
    await expectStatus(
      jsonapi(author, 'PATCH', `/api/documents/templates/${created.data.id}/`, {
        data: { type: 'documents-template', id: created.data.id, attributes: { description: 'Sent on cancellation.' } },
      }),
      200,
    );
    const renamed = await expectStatus(
      jsonapi(author, 'PATCH', `/api/documents/templates/${created.data.id}/`, {
        data: { type: 'documents-template', id: created.data.id, attributes: { name: 'Notice of cancellation' } },
      }),
      200,
    );
    expect(renamed.data.attributes).toMatchObject({
      name: 'Notice of cancellation',
      description: 'Sent on cancellation.',
    });
    const notEmpty = await expectStatus(remove(`/api/documents/folders/${folder.data.id}/`), 409);
    expect(JSON.stringify(notEmpty)).toContain(
      'The folder \\"Notices\\" is not empty; move or delete what is in it first.',
    );
    await expectStatus(remove(`/api/documents/templates/${created.data.id}/`), 204);
    await expectStatus(remove(`/api/documents/folders/${folder.data.id}/`), 204);
  });

  it('lets an adjuster read templates but not author them, and keeps agents out', async () => {
    await expectStatus(jsonapi(adjuster, 'GET', '/api/documents/templates/'), 200);
    await expectStatus(
      jsonapi(adjuster, 'POST', '/api/documents/folders/', {
        data: { type: 'documents-folder', attributes: { name: 'X' } },
      }),
      403,
    );
    await expectStatus(adjuster.post('/api/documents/previews/', { source: 'hi' }), 403);
    await expectStatus(jsonapi(agent, 'GET', '/api/documents/templates/'), 403);
  });
});

describe('previews', () => {
  it('renders source with sample data to SVG', async () => {
    const preview = await expectStatus(
      author.post('/api/documents/previews/', { source: '= Policy #data.policy.number', subject: 'policy' }),
      200,
    );
    expect(preview.page_count).toBe(1);
    expect(preview.svg).toMatch(/^<svg/);
  });

  it("answers 422 with the compiler's message and the template's own line", async () => {
    const body = await expectStatus(
      author.post('/api/documents/previews/', { source: 'Line one\n\n#data.policy.nope', subject: 'policy' }),
      422,
    );
    expect(JSON.stringify(body)).toContain('Line 3, column 14: dictionary does not contain key \\"nope\\"');
  });

  it('stops a runaway template in its child: memory and wall clock are 422s, and the next render works', async () => {
    const memory = await expectStatus(
      author.post('/api/documents/previews/', { source: '#let x = range(1000000000)' }),
      422,
    );
    expect(JSON.stringify(memory)).toContain('The template used more than the 1024 MB memory limit and was stopped.');
    const started = Date.now();
    const slow = await expectStatus(
      author.post('/api/documents/previews/', {
        source: '#for i in range(100000) { for j in range(100000) { let x = i * j } }',
      }),
      422,
    );
    expect(JSON.stringify(slow)).toContain('The template took longer than 3 s to render and was stopped.');
    expect(Date.now() - started).toBeLessThan(8000);
    await expectStatus(author.post('/api/documents/previews/', { source: 'Still here' }), 200);
  });

  it('refuses bad input with a 400', async () => {
    await expectStatus(author.post('/api/documents/previews/', { source: 'x', subject: 'car' }), 400);
    await expectStatus(author.post('/api/documents/previews/', {}), 400);
  });
});

describe('versions and production documents', () => {
  it('freezes a published version, and renders by the document date, not the render date', async () => {
    const dec = await templateNamed('Homeowners declarations page');
    const versions = await expectStatus(author.get(`/api/documents/templates/${dec.id}/versions/`), 200);
    expect(versions.results).toHaveLength(1);
    const v1 = versions.results[0];
    expect(v1).toMatchObject({ number: 1, status: 'published', effective_date: '2026-01-01' });
    const frozen = await expectStatus(author.patch(`/api/documents/versions/${v1.id}/`, { source: 'changed' }), 409);
    expect(JSON.stringify(frozen)).toContain('is published and cannot be changed');

    const v2 = await expectStatus(
      author.post(`/api/documents/templates/${dec.id}/versions/`, { name: 'July 2027', effective_date: '2027-07-01' }),
      201,
    );
    expect(v2).toMatchObject({ number: 2, status: 'draft', source: v1.source });
    await expectStatus(
      author.patch(`/api/documents/versions/${v2.id}/`, { source: `${v1.source}\nSecond edition.\n` }),
      200,
    );
    // An adjuster may not publish; a version that does not compile is not published.
    await expectStatus(adjuster.post(`/api/documents/versions/${v2.id}/publish/`, {}), 403);
    const broken = await expectStatus(
      author.post(`/api/documents/templates/${dec.id}/versions/`, {
        name: 'Broken',
        effective_date: '2027-08-01',
        source: '#(',
      }),
      201,
    );
    const refused = await expectStatus(author.post(`/api/documents/versions/${broken.id}/publish/`, {}), 422);
    expect(JSON.stringify(refused)).toContain(`Version ${broken.number} cannot be published: Line 1`);
    const published = await expectStatus(author.post(`/api/documents/versions/${v2.id}/publish/`, {}), 200);
    expect(published).toMatchObject({ status: 'published', published_by: 'author@atrium.test' });

    // Rendered today (2026), a policy dated mid-2026 still gets version 1; one dated after July 2027 gets 2.
    const before = await expectStatus(
      adjuster.post('/api/documents/production-documents/', {
        template_id: Number(dec.id),
        document_date: '2026-06-01',
        data: SAMPLE_POLICY,
      }),
      201,
    );
    expect(before).toMatchObject({ version_number: 1, page_count: 1 });
    expect(before.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(before.renderer_version).toMatch(/^typst-ts-node-compiler@0\.7\.\d+\+[0-9a-f]{12}$/);
    const after = await expectStatus(
      adjuster.post('/api/documents/production-documents/', {
        template_id: Number(dec.id),
        document_date: '2027-09-15',
        data: SAMPLE_POLICY,
      }),
      201,
    );
    expect(after).toMatchObject({ version_number: 2, version_name: 'July 2027' });
    expect(after.sha256).not.toBe(before.sha256);

    const none = await expectStatus(
      adjuster.post('/api/documents/production-documents/', {
        template_id: Number(dec.id),
        document_date: '2025-06-01',
        data: SAMPLE_POLICY,
      }),
      422,
    );
    expect(JSON.stringify(none)).toContain(
      'No published version of \\"Homeowners declarations page\\" is effective on 2025-06-01.',
    );
  });

  it('re-renders a production document to the same SHA-256, and serves its PDF with the policy number', async () => {
    const letter = await templateNamed('Homeowners declarations page');
    const doc = await expectStatus(
      adjuster.post('/api/documents/production-documents/', {
        template_id: Number(letter.id),
        document_date: '2026-03-01',
        data: SAMPLE_POLICY,
      }),
      201,
    );
    const again = await expectStatus(adjuster.post(`/api/documents/production-documents/${doc.id}/rerender/`, {}), 200);
    expect(again).toMatchObject({ sha256: doc.sha256, stored_sha256: doc.sha256, identical: true });
    const pdf = await adjuster.get(`/api/documents/production-documents/${doc.id}/pdf/`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain('D:20260301000000');
    const kept = await expectStatus(
      author.send('DELETE', `/api/documents/templates/${letter.id}/`, { headers: { accept: JSONAPI.accept } }),
      409,
    );
    expect(JSON.stringify(kept)).toContain(
      'Documents were rendered from \\"Homeowners declarations page\\"; it cannot be deleted.',
    );
    // A document without a record is not in any producer's book: 404, like a missing one.
    await expectStatus(agent.get(`/api/documents/production-documents/${doc.id}/`), 404);
  });

  it("applies the record's scope: an agent reads their own policy's document, not another agency's", async () => {
    const dec = await templateNamed('Homeowners declarations page');
    const render = (record: Record<string, unknown>) =>
      expectStatus(
        adjuster.post('/api/documents/production-documents/', {
          template_id: Number(dec.id),
          document_date: '2026-03-01',
          data: SAMPLE_POLICY,
          record,
        }),
        201,
      );
    const mine = await render({
      type: 'policy',
      id: 'POL-SCOPE-1',
      agent_contact_id: 'CON-AGENT-ALEX',
      agency_contact_id: 'CON-AGENCY-HARBOUR',
    });
    const theirs = await render({
      type: 'policy',
      id: 'POL-SCOPE-2',
      agent_contact_id: 'CON-AGENT-OTHER',
      agency_contact_id: 'CON-AGENCY-OTHER',
    });
    expect(mine.record).toEqual({ type: 'policy', id: 'POL-SCOPE-1', label: `Policy ${SAMPLE_POLICY.policy.number}` });
    await expectStatus(agent.get(`/api/documents/production-documents/${mine.id}/`), 200);
    const refused = await expectStatus(agent.get(`/api/documents/production-documents/${theirs.id}/`), 404);
    expect(JSON.stringify(refused)).toContain(`Production document ${theirs.id} not found.`);
    await expectStatus(agent.get(`/api/documents/production-documents/${theirs.id}/pdf/`), 404);
    await expectStatus(agent.post(`/api/documents/production-documents/${theirs.id}/rerender/`, {}), 404);
    const listed = await expectStatus(agent.get('/api/documents/production-documents/?record_type=policy'), 200);
    expect(listed.results.map((d: { id: number }) => d.id)).toEqual([mine.id]);
    // Staff with the policies' read scope see both; an unknown record type is a 400.
    const all = await expectStatus(adjuster.get('/api/documents/production-documents/?record_type=policy'), 200);
    expect(all.results.map((d: { id: number }) => d.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    await expectStatus(
      adjuster.post('/api/documents/production-documents/', {
        template_id: Number(dec.id),
        document_date: '2026-03-01',
        data: SAMPLE_POLICY,
        record: { type: 'boat', id: 'B-1' },
      }),
      400,
    );
  });
});

describe('demo templates', () => {
  it('renders each published demo version for a reader', async () => {
    for (const name of ['Homeowners declarations page', 'Claim acknowledgement letter']) {
      const t = await templateNamed(name);
      const versions = await expectStatus(adjuster.get(`/api/documents/templates/${t.id}/versions/`), 200);
      const first = versions.results.find((v: { number: number }) => v.number === 1);
      const shown = await expectStatus(adjuster.get(`/api/documents/versions/${first.id}/preview/`), 200);
      expect(shown.page_count, name).toBe(1);
    }
  });
});

describe('data points', () => {
  it('lists the typed catalogue and the samples', async () => {
    const points = await expectStatus(adjuster.get('/api/documents/data-points/?subject=claim'), 200);
    expect(points.results).toContainEqual({
      path: 'claim.number',
      type: 'text',
      sample_value: 'CLM-2026-004567',
      source_module: 'claims',
      subject: 'claim',
    });
    expect(points.results.every((p: { subject: string }) => p.subject === 'claim')).toBe(true);
    const sample = await expectStatus(adjuster.get('/api/documents/data-points/samples/policy/'), 200);
    expect(sample.policy.premium).toBe('1284.50');
    await expectStatus(adjuster.get('/api/documents/data-points/samples/boat/'), 400);
  });
});
