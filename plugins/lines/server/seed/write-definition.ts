import { inArray } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { versionChain } from '../catalog/resolve.js';
import {
  calculation,
  fieldFormat,
  itemLimit,
  rateTable,
  rateTableRow,
  riskField,
  riskItem,
  riskType,
  scenario,
  scenarioRisk,
  sequence,
} from '../tables.js';
import type { DefinitionSpec, RiskSpec } from './definition-spec.js';

/**
 * Stores a definition spec as rows of one version (inside the caller's transaction). Risk type
 * names not defined in the spec are looked up in the version's ancestors (a child product adding to
 * an inherited risk type).
 */
export async function writeDefinition(
  tx: Queryable,
  target: { productId: number; versionId: number },
  spec: DefinitionSpec,
): Promise<void> {
  const { productId, versionId } = target;
  const chain = await versionChain(tx, versionId);
  const inherited = await tx
    .select({ id: riskType.id, name: riskType.name })
    .from(riskType)
    .where(
      inArray(
        riskType.productVersionId,
        chain.slice(1).map((v) => v.id),
      ),
    );
  const typeIds = new Map<string, number>(inherited.map((row) => [row.name.toLowerCase(), row.id]));
  const formats = new Map(
    (await tx.select({ id: fieldFormat.id, name: fieldFormat.name }).from(fieldFormat)).map((f) => [f.name, f.id]),
  );
  const typeId = (name: string) => {
    const id = typeIds.get(name.toLowerCase());
    if (id === undefined) throw new Error(`Risk type '${name}' is not defined.`);
    return id;
  };

  for (const [index, type] of spec.riskTypes.entries()) {
    const [row] = await tx
      .insert(riskType)
      .values({
        productVersionId: versionId,
        parentRiskTypeId: type.parent ? typeId(type.parent) : null,
        name: type.name,
        label: type.label,
        sequence: type.sequence ?? index,
        premiumCalculation: type.premium ?? null,
      })
      .returning({ id: riskType.id });
    typeIds.set(type.name.toLowerCase(), row!.id);

    for (const [order, field] of (type.fields ?? []).entries()) {
      await tx.insert(riskField).values({
        productVersionId: versionId,
        riskTypeId: row!.id,
        name: field.name,
        label: field.label,
        type: field.type,
        defaultValue: field.default ?? null,
        defaultLabel: field.defaultLabel ?? null,
        source: field.source ?? null,
        order: order + 1,
        required: field.required ?? false,
        formatId: field.format ? (formats.get(field.format) ?? null) : null,
        options: field.options ? field.options.map((value) => ({ value })) : null,
        formula: field.formula ?? null,
        roundPlaces: field.round?.places ?? null,
        roundMode: field.round ? (field.round.mode ?? 'half-up') : null,
      });
    }
    const itemIds = new Map<string, number>();
    for (const [order, item] of (type.items ?? []).entries()) {
      const [itemRow] = await tx
        .insert(riskItem)
        .values({
          productVersionId: versionId,
          riskTypeId: row!.id,
          name: item.name,
          label: item.label,
          presence: item.presence ?? 'optional',
          type: item.type ?? 'coverage',
          fullyEarned: item.fullyEarned ?? false,
          order: order + 1,
          premiumCalculation: item.premium ?? null,
        })
        .returning({ id: riskItem.id });
      itemIds.set(item.name, itemRow!.id);
      for (const [limitOrder, limit] of (item.limits ?? []).entries()) {
        await tx.insert(itemLimit).values({
          productVersionId: versionId,
          riskItemId: itemRow!.id,
          kind: limit.kind,
          name: limit.name ?? '',
          label: limit.label,
          defaultValue: limit.default ?? null,
          minValue: limit.min ?? null,
          maxValue: limit.max ?? null,
          options: limit.options ?? [],
          order: limitOrder + 1,
        });
      }
    }
    for (const [order, calc] of (type.calculations ?? []).entries()) {
      if (calc.item && !itemIds.has(calc.item))
        throw new Error(`Item '${calc.item}' is not defined on '${type.name}'.`);
      await tx.insert(calculation).values({
        productVersionId: versionId,
        riskTypeId: row!.id,
        riskItemId: calc.item ? itemIds.get(calc.item)! : null,
        name: calc.name,
        label: calc.label ?? '',
        calculation: calc.formula,
        order: order + 1,
        roundPlaces: calc.round?.places ?? null,
        roundMode: calc.round ? (calc.round.mode ?? 'half-up') : null,
      });
    }
  }

  for (const [order, table] of (spec.rateTables ?? []).entries()) {
    const [row] = await tx
      .insert(rateTable)
      .values({
        productVersionId: versionId,
        riskTypeId: table.riskType ? typeId(table.riskType) : null,
        name: table.name,
        label: table.label,
        keyColumns: table.keys,
        interpolate: table.interpolate ?? null,
        defaultValue: table.default ?? null,
        order: order + 1,
      })
      .returning({ id: rateTable.id });
    if (table.rows.length > 0) {
      await tx
        .insert(rateTableRow)
        .values(table.rows.map(([keys, value], rowOrder) => ({ rateTableId: row!.id, keys, value, rowOrder })));
    }
  }

  for (const seq of spec.sequences ?? []) {
    await tx.insert(sequence).values({
      productVersionId: versionId,
      name: seq.name,
      label: seq.label,
      prefix: seq.prefix ?? '',
      padding: seq.padding ?? 0,
      start: seq.start ?? 1,
      nextValue: seq.start ?? 1,
    });
  }

  for (const item of spec.scenarios ?? []) {
    const [row] = await tx
      .insert(scenario)
      .values({
        productId,
        productVersionId: versionId,
        name: item.name,
        transactionType: item.transactionType,
        effectiveDate: item.effectiveDate,
        termStart: item.termStart,
        termEnd: item.termEnd,
        expectedPremium: item.expectedPremium ?? null,
      })
      .returning({ id: scenario.id });
    await writeScenarioRisk(tx, row!.id, null, item.risk, 0);
  }
}

async function writeScenarioRisk(
  tx: Queryable,
  scenarioId: number,
  parentRiskId: number | null,
  risk: RiskSpec,
  order: number,
): Promise<void> {
  const [row] = await tx
    .insert(scenarioRisk)
    .values({
      scenarioId,
      parentRiskId,
      riskType: risk.type,
      riskState: { type: { name: risk.type }, field_answers: risk.answers, items: risk.items ?? [] },
      order,
    })
    .returning({ id: scenarioRisk.id });
  for (const [index, child] of (risk.children ?? []).entries()) {
    await writeScenarioRisk(tx, scenarioId, row!.id, child, index);
  }
}
