import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import {
  calculation,
  itemLimit,
  productMapping,
  rateTable,
  rateTableRow,
  riskField,
  riskItem,
  riskType,
  scenario,
  scenarioRisk,
  sequence,
} from '../tables.js';

/**
 * Copies every live row a version owns (risk types, fields, items, limits, calculations, rate tables
 * with rows, sequences, mapping, scenarios with risks) into another version of the same product.
 * References to the version's own rows are remapped; references to an ancestor product's rows
 * (inherited risk types) are kept. Runs on the caller's transaction.
 */
export async function copyVersionDefinition(tx: Queryable, fromVersionId: number, toVersionId: number): Promise<void> {
  const strip = <T extends { id: number; createdAt?: Date; updatedAt?: Date }>(row: T) => {
    const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = row;
    return rest;
  };

  // Risk types, parents first.
  const types = await tx
    .select()
    .from(riskType)
    .where(eq(riskType.productVersionId, fromVersionId))
    .orderBy(asc(riskType.id));
  const typeMap = new Map<number, number>();
  const ownTypeIds = new Set(types.map((t) => t.id));
  let pending = types;
  while (pending.length > 0) {
    const ready = pending.filter(
      (t) => t.parentRiskTypeId === null || !ownTypeIds.has(t.parentRiskTypeId) || typeMap.has(t.parentRiskTypeId),
    );
    if (ready.length === 0) throw new Error(`Risk types of version ${fromVersionId} form a cycle.`);
    for (const t of ready) {
      const [row] = await tx
        .insert(riskType)
        .values({
          ...strip(t),
          productVersionId: toVersionId,
          parentRiskTypeId:
            t.parentRiskTypeId === null ? null : (typeMap.get(t.parentRiskTypeId) ?? t.parentRiskTypeId),
        })
        .returning({ id: riskType.id });
      typeMap.set(t.id, row!.id);
    }
    pending = pending.filter((t) => !typeMap.has(t.id));
  }
  const mapType = (id: number) => typeMap.get(id) ?? id;

  const fields = await tx
    .select()
    .from(riskField)
    .where(and(eq(riskField.productVersionId, fromVersionId), isNull(riskField.deletedAt)));
  if (fields.length > 0) {
    await tx
      .insert(riskField)
      .values(fields.map((f) => ({ ...strip(f), productVersionId: toVersionId, riskTypeId: mapType(f.riskTypeId) })));
  }

  const items = await tx
    .select()
    .from(riskItem)
    .where(and(eq(riskItem.productVersionId, fromVersionId), isNull(riskItem.deletedAt)))
    .orderBy(asc(riskItem.id));
  const itemMap = new Map<number, number>();
  for (const item of items) {
    const [row] = await tx
      .insert(riskItem)
      .values({ ...strip(item), productVersionId: toVersionId, riskTypeId: mapType(item.riskTypeId) })
      .returning({ id: riskItem.id });
    itemMap.set(item.id, row!.id);
  }
  const mapItem = (id: number) => itemMap.get(id) ?? id;

  const limits = await tx
    .select()
    .from(itemLimit)
    .where(and(eq(itemLimit.productVersionId, fromVersionId), isNull(itemLimit.deletedAt)));
  if (limits.length > 0) {
    await tx
      .insert(itemLimit)
      .values(limits.map((l) => ({ ...strip(l), productVersionId: toVersionId, riskItemId: mapItem(l.riskItemId) })));
  }

  const calcs = await tx
    .select()
    .from(calculation)
    .where(and(eq(calculation.productVersionId, fromVersionId), isNull(calculation.deletedAt)));
  if (calcs.length > 0) {
    await tx.insert(calculation).values(
      calcs.map((c) => ({
        ...strip(c),
        productVersionId: toVersionId,
        riskTypeId: mapType(c.riskTypeId),
        riskItemId: c.riskItemId === null ? null : mapItem(c.riskItemId),
      })),
    );
  }

  const tables = await tx
    .select()
    .from(rateTable)
    .where(and(eq(rateTable.productVersionId, fromVersionId), isNull(rateTable.deletedAt)))
    .orderBy(asc(rateTable.id));
  const tableMap = new Map<number, number>();
  for (const table of tables) {
    const [row] = await tx
      .insert(rateTable)
      .values({
        ...strip(table),
        productVersionId: toVersionId,
        riskTypeId: table.riskTypeId === null ? null : mapType(table.riskTypeId),
      })
      .returning({ id: rateTable.id });
    tableMap.set(table.id, row!.id);
  }
  if (tables.length > 0) {
    const rows = await tx
      .select()
      .from(rateTableRow)
      .where(
        and(
          inArray(
            rateTableRow.rateTableId,
            tables.map((t) => t.id),
          ),
          isNull(rateTableRow.deletedAt),
        ),
      );
    // Insert in chunks: a parameter list per statement stays well below PostgreSQL's limit.
    for (let i = 0; i < rows.length; i += 1000) {
      await tx.insert(rateTableRow).values(
        rows.slice(i, i + 1000).map((r) => ({
          rateTableId: tableMap.get(r.rateTableId)!,
          keys: r.keys,
          value: r.value,
          rowOrder: r.rowOrder,
        })),
      );
    }
  }

  const sequences = await tx.select().from(sequence).where(eq(sequence.productVersionId, fromVersionId));
  if (sequences.length > 0) {
    await tx.insert(sequence).values(sequences.map((s) => ({ ...strip(s), productVersionId: toVersionId })));
  }

  const mappings = await tx.select().from(productMapping).where(eq(productMapping.productVersionId, fromVersionId));
  for (const mapping of mappings) {
    await tx.insert(productMapping).values({ ...strip(mapping), productVersionId: toVersionId });
  }

  const scenarios = await tx.select().from(scenario).where(eq(scenario.productVersionId, fromVersionId));
  for (const s of scenarios) {
    const [row] = await tx
      .insert(scenario)
      .values({ ...strip(s), productVersionId: toVersionId, lastRating: null, lastRatedAt: null })
      .returning({ id: scenario.id });
    await copyScenarioRisks(tx, s.id, row!.id);
  }
}

/** Copies a scenario's risk tree into another scenario (parents first). */
export async function copyScenarioRisks(tx: Queryable, fromScenarioId: number, toScenarioId: number): Promise<void> {
  const risks = await tx
    .select()
    .from(scenarioRisk)
    .where(eq(scenarioRisk.scenarioId, fromScenarioId))
    .orderBy(asc(scenarioRisk.id));
  const riskMap = new Map<number, number>();
  let pending = risks;
  while (pending.length > 0) {
    const ready = pending.filter((r) => r.parentRiskId === null || riskMap.has(r.parentRiskId));
    if (ready.length === 0) break;
    for (const risk of ready) {
      const [row] = await tx
        .insert(scenarioRisk)
        .values({
          scenarioId: toScenarioId,
          parentRiskId: risk.parentRiskId === null ? null : riskMap.get(risk.parentRiskId)!,
          riskType: risk.riskType,
          riskState: risk.riskState,
          order: risk.order,
        })
        .returning({ id: scenarioRisk.id });
      riskMap.set(risk.id, row!.id);
    }
    pending = pending.filter((r) => !riskMap.has(r.id));
  }
}
