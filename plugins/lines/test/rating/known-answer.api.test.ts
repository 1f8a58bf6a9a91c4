import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productVersion } from '../../server/tables.js';
import { errorOf, expectStatus, startLinesServer, type LinesTestServer } from '../catalog/lines-test-server.js';
import { demoProduct, setRate } from './rating-test-data.js';

/**
 * Known-answer cases on the seeded Homeowners draft (its scenarios were copied from the published
 * version with their expected premiums): run without publishing, then publishing refused while a
 * case differs (with the difference factor by factor) and allowed once they all match again.
 */
let server: LinesTestServer;
let home: Awaited<ReturnType<typeof demoProduct>>;
beforeAll(async () => {
  server = await startLinesServer();
  home = await demoProduct(server.db, 'homeowners');
});
afterAll(async () => server?.close());

interface Report {
  passed: boolean;
  message: string;
  total: number;
  failed: number;
  cases: {
    scenario_id: number;
    name: string;
    passed: boolean;
    expected_premium: string;
    actual_premium: string | null;
    differences: { kind: string; name?: string; calculation?: string; message: string }[];
  }[];
}

const AUSTIN = 'Frame home in Austin with scheduled jewelry';
const run = (versionId: number) =>
  expectStatus<Report>(
    server.author.post(`/api/lines/products/${home.id}/versions/${versionId}/known-answer-cases/run/`, {}),
    200,
  );
const publish = () =>
  server.author.patch(`/api/lines/products/${home.id}/versions/${home.draft}/status/`, { status: 'published' });
const statusOf = async (versionId: number) =>
  (await server.db.select().from(productVersion).where(eq(productVersion.id, versionId)))[0]!.status;

describe('known-answer cases', () => {
  it('runs the cases of a version without publishing it', async () => {
    const report = await run(home.draft);
    expect(report.passed).toBe(true);
    expect(report.total).toBeGreaterThanOrEqual(3);
    expect(report.message).toBe(`All ${report.total} known-answer cases match.`);
    expect(await statusOf(home.draft)).toBe('draft');
    await expectStatus(
      server.author.post(`/api/lines/products/${home.id}/versions/999999/known-answer-cases/run/`, {}),
      404,
    );
    await expectStatus(
      server.underwriter.post(`/api/lines/products/${home.id}/versions/${home.draft}/known-answer-cases/run/`, {}),
      403,
    );
  });

  it('records the worksheet with an expected premium only when the rating gives that premium', async () => {
    const austin = (await run(home.draft)).cases.find((c) => c.name === AUSTIN)!;
    const path = `/api/lines/products/${home.id}/scenarios/${austin.scenario_id}/`;
    const wrong = await expectStatus(server.author.put(path, { expected_premium: '1000.00' }), 200);
    expect(wrong).toMatchObject({ expected_premium: '1000.00', has_expected_worksheet: false });
    expect(await errorOf(server.author.put(path, { expected_premium: 'lots' }), 400)).toBe(
      'An amount must be a decimal number such as 1000 or 1000.50.',
    );
    const right = await expectStatus(server.author.put(path, { expected_premium: '1789.6' }), 200);
    expect(right).toMatchObject({ has_expected_worksheet: true, premium: { pro_rata: '1789.60' } });
    const recorded = await expectStatus(server.author.post(`${path}known-answer/`, {}), 200);
    expect(recorded).toMatchObject({ expected_premium: '1789.60', has_expected_worksheet: true });
  });

  it('refuses to publish while a case differs, naming the factor that moved', async () => {
    await setRate(server.db, home.draft, 'territory_factor', 0, '1.2'); // 78701: 1.12 → 1.20
    const report = await run(home.draft);
    expect(report.passed).toBe(false);
    const austin = report.cases.find((c) => c.name === AUSTIN)!;
    expect(austin.passed).toBe(false);
    expect(austin.expected_premium).toBe('1789.60');
    expect(austin.actual_premium).not.toBe('1789.60');
    expect(austin.differences).toContainEqual(
      expect.objectContaining({
        kind: 'table',
        calculation: 'key_factor',
        name: 'territory_factor',
        message: expect.stringContaining('territory_factor(zip=78701) = 1.12 became territory_factor(zip=78701) = 1.2'),
      }),
    );
    expect(austin.differences).toContainEqual(expect.objectContaining({ kind: 'value', calculation: 'key_factor' }));
    expect(report.cases.find((c) => c.name === 'Masonry home in Houston')!.passed).toBe(true);

    const refused = await publish();
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body.code).toBe('known_answer_mismatch');
    expect(body.detail).toMatch(
      /^This version cannot be published: 2 of \d+ known-answer cases differ: 'Frame home in Austin/,
    );
    expect(body.detail).toContain('key_factor: expected 1.3552, got');
    expect(body.known_answer_cases.cases.filter((c: { passed: boolean }) => !c.passed)).toHaveLength(2);
    expect(await statusOf(home.draft)).toBe('draft');
  });

  it('publishes once every case matches again', async () => {
    await setRate(server.db, home.draft, 'territory_factor', 0, '1.12');
    expect((await run(home.draft)).passed).toBe(true);
    const published = await expectStatus(publish(), 200);
    expect(published.status).toBe('published');
    expect(await statusOf(home.draft)).toBe('published');
  });
});
