import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { CompiledRateTable, type DefinitionProblem, type KeyCell } from '@atrium/rating';
import type { Queryable } from '@atrium/sdk/server';
import {
  calculationsOf,
  fieldsOf,
  itemsOf,
  limitsOf,
  resolveDefinition,
  type ResolvedDefinition,
  type ResolvedRateTable,
} from '../catalog/resolve.js';
import { itemValues } from '../catalog/risk-type-child-rows.js';
import { line, product, productVersion } from '../tables.js';
import type { GqlProduct, GqlRiskType, GqlVersion, LinesGraphqlSource } from './source.js';

/**
 * The GraphQL source over the lines tables. Risk types and what hangs off them are read from the
 * version's resolved definition (inheritance from parent products applied, `inheritanceStatus` as
 * the REST routes give it). One source lives for one request and keeps each definition it resolved,
 * so a query walking a whole risk type tree resolves each version once.
 */
const lower = (s: string) => s.toLowerCase();

function rateTableValidity(table: ResolvedRateTable): 'valid' | 'invalid' | 'empty' {
  if (table.rows.length === 0) return 'empty';
  const problems: DefinitionProblem[] = [];
  try {
    new CompiledRateTable(
      {
        name: table.row.name,
        keys: table.row.keyColumns.map((k) => ({ name: k.name, match: k.match })),
        rows: table.rows.map((r) => ({ keys: r.keys as Record<string, KeyCell>, value: r.value })),
        ...(table.row.interpolate ? { interpolate: table.row.interpolate } : {}),
        ...(table.row.defaultValue === null ? {} : { default: table.row.defaultValue }),
      },
      problems,
    );
  } catch {
    return 'invalid';
  }
  return problems.length > 0 ? 'invalid' : 'valid';
}

export function createDatabaseSource(db: Queryable): LinesGraphqlSource {
  const definitions = new Map<number, Promise<ResolvedDefinition>>();
  const definitionOf = (versionId: number) => {
    let found = definitions.get(versionId);
    if (!found) definitions.set(versionId, (found = resolveDefinition(db, versionId)));
    return found;
  };
  const productColumns = {
    id: product.id,
    lineId: product.lineId,
    name: product.name,
    label: product.label,
    parentProductId: product.parentProductId,
    settings: product.settings,
  };
  const versionColumns = {
    id: productVersion.id,
    productId: productVersion.productId,
    name: productVersion.label,
    status: productVersion.status,
    effectiveDate: productVersion.effectiveDate,
    number: productVersion.number,
  };
  const versions = async (productId: number): Promise<(GqlVersion & { number: number })[]> =>
    db
      .select(versionColumns)
      .from(productVersion)
      .where(eq(productVersion.productId, productId))
      .orderBy(asc(productVersion.number));
  const latestVersion = async (productId: number): Promise<GqlVersion | null> => {
    const all = await versions(productId);
    return [...all].reverse().find((v) => v.status === 'published') ?? all[all.length - 1] ?? null;
  };

  const source: LinesGraphqlSource = {
    async lines(filter) {
      return db
        .select({ id: line.id, name: line.name, label: line.label })
        .from(line)
        .where(filter.name ? sql`lower(${line.name}) = lower(${filter.name})` : undefined)
        .orderBy(asc(line.name));
    },
    async line(by) {
      const [row] = await db
        .select({ id: line.id, name: line.name, label: line.label })
        .from(line)
        .where(by.id !== undefined ? eq(line.id, by.id) : sql`lower(${line.name}) = lower(${by.name ?? ''})`)
        .limit(1);
      return row ?? null;
    },
    async latestProduct(lineId) {
      const [row] = await db
        .select(productColumns)
        .from(product)
        .where(and(eq(product.lineId, lineId), isNull(product.parentProductId)))
        .orderBy(desc(product.createdAt), desc(product.id))
        .limit(1);
      return (row as GqlProduct | undefined) ?? null;
    },
    async products(filter) {
      const rows = await db
        .select(productColumns)
        .from(product)
        .where(
          and(
            filter.lineId === undefined ? undefined : eq(product.lineId, filter.lineId),
            filter.parentProductId === undefined
              ? undefined
              : filter.parentProductId === null
                ? isNull(product.parentProductId)
                : eq(product.parentProductId, filter.parentProductId),
          ),
        )
        .orderBy(asc(product.name));
      return rows as GqlProduct[];
    },
    async product(by) {
      const [row] = await db
        .select(productColumns)
        .from(product)
        .where(by.id !== undefined ? eq(product.id, by.id) : sql`lower(${product.name}) = lower(${by.name ?? ''})`)
        .limit(1);
      return (row as GqlProduct | undefined) ?? null;
    },
    versions,
    latestVersion,
    async riskTypes(productId, versionId) {
      const version =
        versionId === null
          ? await latestVersion(productId)
          : (await versions(productId)).find((v) => v.id === versionId);
      if (!version) return [];
      const definition = await definitionOf(version.id);
      const idOf = new Map(definition.riskTypes.map((t) => [lower(t.row.name), t.row.id]));
      return definition.riskTypes.map((t): GqlRiskType => ({
        id: t.row.id,
        productId,
        versionId: version.id,
        name: t.row.name,
        label: t.row.label,
        sequence: String(t.row.sequence),
        parentRiskTypeId: t.parentName === null ? null : (idOf.get(lower(t.parentName)) ?? null),
      }));
    },
    async riskFields(t) {
      return fieldsOf(await definitionOf(t.versionId), t.name).map(({ row, productId, inheritanceStatus }) => ({
        id: row.id,
        name: row.name,
        label: row.label,
        default: row.defaultValue,
        source: row.source,
        order: row.order,
        type: row.type,
        format: row.formatId === null ? null : String(row.formatId),
        options: row.options?.map((o) => o.value) ?? null,
        productId,
        inheritanceStatus,
        defaultLabel: row.defaultLabel,
      }));
    },
    async riskItems(t) {
      const definition = await definitionOf(t.versionId);
      return itemsOf(definition, t.name).map(({ row, productId, inheritanceStatus }) => ({
        id: row.id,
        ...itemValues(row),
        productId,
        inheritanceStatus,
        limits: limitsOf(definition, t.name, row.name).map(({ row: l }) => ({
          id: l.id,
          name: l.name,
          label: l.label,
          kind: l.kind,
          default: l.defaultValue,
        })),
      }));
    },
    async rateTables(t) {
      const definition = await definitionOf(t.versionId);
      return definition.rateTables
        .filter((table) => table.riskTypeName !== null && lower(table.riskTypeName) === lower(t.name))
        .map((table) => ({
          id: table.row.id,
          name: table.row.name,
          label: table.row.label,
          default: table.row.defaultValue,
          validityState: rateTableValidity(table),
          rowsCount: table.rows.length,
          productId: table.productId,
          inheritanceStatus: table.inheritanceStatus,
        }));
    },
    async calculations(t) {
      return calculationsOf(await definitionOf(t.versionId), t.name).map(({ row, productId, inheritanceStatus }) => ({
        id: row.id,
        name: row.name,
        calculation: row.calculation,
        order: row.order,
        riskItemId: row.riskItemId,
        productId,
        inheritanceStatus,
      }));
    },
  };
  return source;
}
