import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import documentsPlugin from '../server/plugin.js';
import { SAMPLE_CLAIM, SAMPLE_POLICY } from '../shared/data-points.js';
import { pdfToText } from './pdf-pages.js';

/** Components, assets and helper functions on a seeded database with the real render pool. */
let server: AccessTestServer;
let author: Caller;
let adjuster: Caller;
beforeAll(async () => {
  server = await startAccessServer([documentsPlugin]);
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
const detail = (body: { errors: { detail: string }[] }) => body.errors[0]!.detail;

function tinyPng(): string {
  const png = new PNG({ width: 4, height: 4 });
  png.data.fill(0x80);
  return PNG.sync.write(png).toString('base64');
}

describe('components, assets and helpers', () => {
  it('lists the helper functions', async () => {
    const list = await expectStatus(adjuster.get('/api/documents/helper-functions/'), 200);
    expect(list.results.map((h: { name: string }) => h.name)).toEqual(['formatCurrency', 'formatDate', 'pluralize']);
  });

  it('prints the demo claim letter with its component, logo and helper-formatted dates', async () => {
    const list = await expectStatus(
      author.send('GET', '/api/documents/templates/', { headers: { accept: 'application/vnd.api+json' } }),
      200,
    );
    const letter = list.data.find(
      (t: { attributes: { name: string } }) => t.attributes.name === 'Claim acknowledgement letter',
    );
    const doc = await expectStatus(
      adjuster.post('/api/documents/production-documents/', {
        template_id: Number(letter.id),
        document_date: '2026-10-15',
        data: SAMPLE_CLAIM,
      }),
      201,
    );
    const pdf = Buffer.from(
      await (await adjuster.get(`/api/documents/production-documents/${doc.id}/pdf/`)).arrayBuffer(),
    );
    const text = pdfToText(pdf);
    expect(text).toContain('loss of October 14, 2026');
    expect(text).toContain('We received your claim on October 15, 2026');
    expect(text).toContain('Sincerely');
    const components = await expectStatus(adjuster.get('/api/documents/components/'), 200);
    expect(components.results.map((c: { name: string }) => c.name)).toContain('signature-block');
    const assets = await expectStatus(adjuster.get('/api/documents/assets/'), 200);
    expect(assets.results.map((a: { name: string }) => a.name)).toContain('atrium-logo.svg');
  });

  it('renders a template with a component and an asset, and re-renders it from what it read', async () => {
    const created = await expectStatus(
      author.post('/api/documents/components/', {
        name: 'premium-line',
        description: 'The premium in words.',
        source:
          '#let premium-line(p) = [Total premium: #formatCurrency(p.premium) for #pluralize(p.coverages.len(), "coverage")]',
      }),
      201,
    );
    expect(created.import_line).toBe('#import "/components/premium-line.typ": *');
    await expectStatus(adjuster.post('/api/documents/components/', { name: 'x', source: 'x' }), 403);
    expect(
      detail(await expectStatus(author.post('/api/documents/components/', { name: 'premium-line', source: 'x' }), 409)),
    ).toBe('A component named "premium-line" already exists.');
    expect(
      detail(await expectStatus(author.post('/api/documents/components/', { name: 'Bad Name', source: 'x' }), 400)),
    ).toBe('A component name is lowercase letters, digits and dashes, such as address-block.');
    const logo = await expectStatus(
      author.post('/api/documents/assets/', { name: 'test-logo.png', content_base64: tinyPng() }),
      201,
    );
    expect(logo).toMatchObject({ mime_type: 'image/png', usage: '#image("/assets/test-logo.png")' });
    expect(
      detail(
        await expectStatus(
          author.post('/api/documents/assets/', {
            name: 'fake.png',
            content_base64: Buffer.from('hello').toString('base64'),
          }),
          422,
        ),
      ),
    ).toBe('The file is not the PNG image its name says.');
    const content = await author.get(`/api/documents/assets/${logo.id}/content/`);
    expect(content.headers.get('content-type')).toBe('image/png');

    const source =
      '#import "/components/premium-line.typ": *\n#image("/assets/test-logo.png", width: 1cm)\n#premium-line(data.policy)';
    const preview = await expectStatus(author.post('/api/documents/previews/', { source }), 200);
    expect(preview.page_count).toBe(1);
    const missing = await expectStatus(
      author.post('/api/documents/previews/', { source: '#import "/components/nope.typ": *' }),
      422,
    );
    expect(detail(missing)).toMatch(/^Line 1, column \d+: .*not found/i);

    // A template of its own, published, produced, then the component changes: the re-render reads the stored source.
    const tpl = await expectStatus(
      author.send('POST', '/api/documents/templates/', {
        headers: { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
        body: JSON.stringify({
          data: {
            type: 'documents-template',
            attributes: { name: 'Premium notice', subject: 'policy' },
            relationships: {
              folder: {
                data: {
                  type: 'documents-folder',
                  id: (
                    await expectStatus(
                      author.send('GET', '/api/documents/folders/', {
                        headers: { accept: 'application/vnd.api+json' },
                      }),
                      200,
                    )
                  ).data[0].id,
                },
              },
            },
          },
        }),
      }),
      201,
    );
    const v = await expectStatus(
      author.post(`/api/documents/templates/${tpl.data.id}/versions/`, {
        name: 'First',
        effective_date: '2026-01-01',
        source,
      }),
      201,
    );
    await expectStatus(author.post(`/api/documents/versions/${v.id}/publish/`, {}), 200);
    const doc = await expectStatus(
      adjuster.post('/api/documents/production-documents/', {
        template_id: Number(tpl.data.id),
        document_date: '2026-03-01',
        data: SAMPLE_POLICY,
      }),
      201,
    );
    const pdf = Buffer.from(
      await (await adjuster.get(`/api/documents/production-documents/${doc.id}/pdf/`)).arrayBuffer(),
    );
    expect(pdfToText(pdf)).toContain('Total premium: $1,284.50 for 4 coverages');
    await expectStatus(
      author.patch(`/api/documents/components/${created.id}/`, { source: '#let premium-line(p) = [Changed]' }),
      200,
    );
    const again = await expectStatus(adjuster.post(`/api/documents/production-documents/${doc.id}/rerender/`, {}), 200);
    expect(again.identical).toBe(true);

    expect(detail(await expectStatus(author.delete(`/api/documents/assets/${logo.id}/`), 409))).toBe(
      '"test-logo.png" is used by a template or a production document and cannot be deleted.',
    );
    expect(detail(await expectStatus(author.delete(`/api/documents/components/${created.id}/`), 409))).toBe(
      'A template or component imports "premium-line"; remove the import first.',
    );
  });
});
