import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import linesPlugin from '../../lines/server/plugin.js';
import rulesPlugin from '../server/plugin.js';

let server: AccessTestServer;
let admin: Caller;
let author: Caller;
beforeAll(async () => {
  server = await startAccessServer([linesPlugin, rulesPlugin]);
  admin = server.as('admin@atrium.test');
  author = server.as('author@atrium.test');
});
afterAll(async () => server?.close());

async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

it('lists the committed rules a lines draft breaks; publishing needs the impact acknowledged', async () => {
  const projects = (await expectStatus(author.get('/api/rules/projects/'), 200)).results;
  const auto = projects.find((p: { product: string }) => p.product === 'personal_auto');
  // In sync with the version in force: nothing listed.
  const before = await expectStatus(author.get(`/api/rules/projects/${auto.id}/sync-lines/`), 200);
  expect(before.count).toBe(0);

  // The demo data keeps a draft of Personal Auto; rename a field the committed rules use there.
  const versions = await expectStatus(admin.get('/api/lines/products/personal_auto/versions/'), 200);
  const draft = (versions.results ?? versions).find((v: { status: string }) => v.status === 'draft');
  const fields = (
    await expectStatus(
      admin.get(`/api/lines/products/personal_auto/risk-types/vehicle/risk-fields/?version_id=${draft.id}`),
      200,
    )
  ).results;
  const vin = fields.find((f: { name: string }) => f.name === 'vin');
  await expectStatus(
    admin.put(`/api/lines/products/personal_auto/risk-types/vehicle/risk-fields/${vin.id}/?version_id=${draft.id}`, {
      name: 'vehicle_id_number',
    }),
    200,
  );
  const refused = await expectStatus(
    admin.patch(`/api/lines/products/personal_auto/versions/${draft.id}/status/`, { status: 'published' }),
    409,
  );
  expect(JSON.stringify(refused)).toContain('publish_impact');
  const impact = refused.impact ?? refused.errors?.[0]?.meta?.impact;
  expect(impact.length).toBeGreaterThan(0);
  expect(impact).toContainEqual(
    expect.objectContaining({
      subject: expect.stringContaining('agents_keep_vin'),
      message: expect.stringContaining("'vin'"),
    }),
  );
  await expectStatus(
    admin.patch(`/api/lines/products/personal_auto/versions/${draft.id}/status/`, {
      status: 'published',
      acknowledgeImpact: true,
    }),
    200,
  );
  // Sync with lines on a date the new version governs now lists the broken rules.
  const date = await expectStatus(
    author.post(`/api/rules/projects/${auto.id}/effective-dates/`, { effective_date: '2099-02-01', name: 'Feb 2099' }),
    201,
  );
  const after = await expectStatus(
    author.get(`/api/rules/projects/${auto.id}/sync-lines/?effectiveDate=${date.id}`),
    200,
  );
  expect(after.count).toBeGreaterThan(0);
  expect(after.results.map((r: { component: string }) => r.component)).toContain(
    impact.find((i: { subject: string }) => i.subject.includes('agents_keep_vin')).subject,
  );
  await expectStatus(author.get(`/api/rules/projects/${auto.id}/sync-lines/?effectiveDate=x`), 400);

  // The sync job (POST …/sync/) lists the same, and fails until the rules match again.
  let job = await expectStatus(
    author.post(`/api/rules/projects/${auto.id}/sync/`, { effective_date_id: date.id }),
    202,
  );
  for (let i = 0; i < 300 && (job.status === 'NEW' || job.status === 'IN_PROGRESS'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = await expectStatus(author.get(`/api/rules/job/${job.id}/`), 200);
  }
  expect(job).toMatchObject({ kind: 'sync', status: 'COMPLETED', resultStatus: 'ERROR', progress: '100.00' });
  expect(job.result).toEqual(after);
});
