import type {
  CalculationDefinition,
  FieldDefinition,
  KeyCell,
  ProductDefinition,
  RateTableDefinition,
  RiskTypeDefinition,
  RoundingMode,
  Scalar,
} from '@atrium/rating';
import { badRequest, notFound, type Queryable } from '@atrium/sdk/server';
import {
  calculationsOf,
  fieldsOf,
  itemsOf,
  resolveDefinition,
  type FieldRow,
  type ResolvedDefinition,
} from './catalog/resolve.js';

/** A field's default (stored as text) typed for the engine. */
function typedDefault(row: FieldRow): Scalar | undefined {
  if (row.defaultValue === null) return undefined;
  if (row.type === 'boolean') return row.defaultValue === 'true';
  return row.defaultValue;
}

const round = (places: number | null, mode: string | null) =>
  places === null ? undefined : { places, mode: (mode ?? 'half-up') as RoundingMode };

/** Converts a resolved definition (inheritance applied) to what @atrium/rating compiles. */
export function toProductDefinition(definition: ResolvedDefinition): ProductDefinition {
  const version = definition.chain[0]!;
  const root = definition.riskTypes.find((t) => t.depth === 1);
  if (!root) {
    throw badRequest(`Version ${version.number} of ${version.productName} has no risk types to rate.`, {
      code: 'no_root_risk_type',
    });
  }
  const riskTypes: RiskTypeDefinition[] = definition.riskTypes.map((t) => {
    const name = t.row.name;
    const fields: FieldDefinition[] = fieldsOf(definition, name).map(({ row }) => ({
      name: row.name,
      type: row.type,
      ...(typedDefault(row) === undefined ? {} : { default: typedDefault(row) }),
      ...(row.formula === null ? {} : { formula: row.formula }),
      ...(round(row.roundPlaces, row.roundMode) ? { round: round(row.roundPlaces, row.roundMode) } : {}),
      ...(row.options ? { options: row.options.map((option) => option.value) } : {}),
    }));
    const items = itemsOf(definition, name).map(({ row }) => ({
      name: row.name,
      fullyEarned: row.fullyEarned,
      ...(row.premiumCalculation ? { premium: row.premiumCalculation } : {}),
    }));
    const calculations: CalculationDefinition[] = calculationsOf(definition, name).map(({ row, itemName }) => ({
      name: row.name,
      formula: row.calculation,
      order: row.order,
      ...(itemName ? { item: itemName } : {}),
      ...(round(row.roundPlaces, row.roundMode) ? { round: round(row.roundPlaces, row.roundMode) } : {}),
    }));
    return {
      name,
      ...(t.parentName ? { parent: t.parentName } : {}),
      fields,
      items,
      calculations,
      ...(t.row.premiumCalculation ? { premium: t.row.premiumCalculation } : {}),
    };
  });
  const rateTables: RateTableDefinition[] = definition.rateTables.map((t) => ({
    name: t.row.name,
    keys: t.row.keyColumns.map((column) => ({ name: column.name, match: column.match })),
    rows: t.rows.map((row) => ({ keys: row.keys as Record<string, KeyCell>, value: row.value })),
    ...(t.row.interpolate ? { interpolate: t.row.interpolate } : {}),
    ...(t.row.defaultValue === null ? {} : { default: t.row.defaultValue }),
  }));
  return {
    name: version.productName,
    version: version.label,
    rootRiskType: root.row.name,
    riskTypes,
    rateTables,
    premiumRounding: { places: version.premiumRoundingPlaces, mode: version.premiumRoundingMode },
  };
}

/**
 * The rating engine's definition of a product version, inheritance resolved: risk types with their
 * parents, fields, items, calculations in order, rate tables with their rows. 404 when the version
 * is not one of the product's; 400 when the version has no risk type.
 */
export async function loadProductDefinition(
  db: Queryable,
  productId: number,
  versionId: number,
): Promise<ProductDefinition> {
  const definition = await resolveDefinition(db, versionId);
  if (definition.chain[0]!.productId !== productId) {
    throw notFound(`Version ${versionId} of product ${productId} not found.`);
  }
  return toProductDefinition(definition);
}
