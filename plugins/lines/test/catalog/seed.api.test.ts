import { compileProduct, rate, type RiskInput, type TransactionType } from '@atrium/rating';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProductDefinition } from '../../server/product-definition.js';
import { product, productVersion, scenario, scenarioRisk } from '../../server/tables.js';
import type { RiskStateJson } from '../../shared/definition-types.js';
import { startLinesServer, type LinesTestServer } from './lines-test-server.js';

let server: LinesTestServer;
beforeAll(async () => {
  server = await startLinesServer();
});
afterAll(async () => server?.close());

type RiskRow = typeof scenarioRisk.$inferSelect;

function toRiskInput(row: RiskRow, rows: RiskRow[]): RiskInput {
  const state = row.riskState as RiskStateJson;
  return {
    id: String(row.id),
    type: row.riskType,
    answers: state.field_answers,
    items: state.items.map((item) => ({
      name: item.name,
      ...(item.limit != null ? { limit: item.limit } : {}),
      ...(item.deductible != null ? { deductible: item.deductible } : {}),
    })),
    children: rows.filter((r) => r.parentRiskId === row.id).map((child) => toRiskInput(child, rows)),
  };
}

async function rateSeededScenarios(productName: string) {
  const [p] = await server.db.select().from(product).where(eq(product.name, productName));
  const versions = await server.db
    .select()
    .from(productVersion)
    .where(eq(productVersion.productId, p!.id))
    .orderBy(asc(productVersion.number));
  const out: { version: number; name: string; expected: string | null; actual: string }[] = [];
  for (const version of versions) {
    const compiled = compileProduct(await loadProductDefinition(server.db, p!.id, version.id));
    const scenarios = await server.db.select().from(scenario).where(eq(scenario.productVersionId, version.id));
    for (const s of scenarios) {
      const risks = await server.db.select().from(scenarioRisk).where(eq(scenarioRisk.scenarioId, s.id));
      const root = risks.find((r) => r.parentRiskId === null)!;
      const result = rate(compiled, {
        transactionType: s.transactionType as TransactionType,
        termStart: s.termStart!,
        termEnd: s.termEnd!,
        effectiveDate: s.effectiveDate,
        risk: toRiskInput(root, risks),
      });
      out.push({ version: version.number, name: s.name, expected: s.expectedPremium, actual: result.premium });
    }
  }
  return { versions, out };
}

describe('demo lines', () => {
  it('seeds Homeowners with a published version and a draft whose known answers hold', async () => {
    const { versions, out } = await rateSeededScenarios('homeowners');
    expect(versions.map((v) => v.status)).toEqual(['published', 'draft']);
    expect(out).toHaveLength(6);
    for (const row of out) expect(row.actual, `${row.name} (version ${row.version})`).toBe(row.expected);
    expect(out.find((r) => r.name.startsWith('Frame home'))!.actual).toBe('1789.60');
  });

  it('seeds Personal Auto with a published version and a draft whose known answers hold', async () => {
    const { versions, out } = await rateSeededScenarios('personal_auto');
    expect(versions.map((v) => v.status)).toEqual(['published', 'draft']);
    expect(out).toHaveLength(4);
    for (const row of out) expect(row.actual, `${row.name} (version ${row.version})`).toBe(row.expected);
  });

  it('resolves the Texas child product: inherited risk types, its own territory table', async () => {
    const [texas] = await server.db.select().from(product).where(eq(product.name, 'homeowners_tx'));
    const [version] = await server.db.select().from(productVersion).where(eq(productVersion.productId, texas!.id));
    const definition = await loadProductDefinition(server.db, texas!.id, version!.id);
    expect(definition.rootRiskType).toBe('home');
    expect(definition.riskTypes.map((t) => t.name)).toEqual(['home', 'scheduled_article']);
    const territory = definition.rateTables!.find((t) => t.name === 'territory_factor')!;
    expect(territory.default).toBe('1.05');
    expect(territory.rows).toHaveLength(3);
    expect(definition.rateTables).toHaveLength(7);
  });
});
