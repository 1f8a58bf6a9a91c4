import { badRequest, notFound, z, type Queryable } from '@atrium/sdk/server';
import type { InheritanceStatus } from '../../shared/definition-types.js';
import {
  itemsOf,
  limitsOf,
  resolveDefinition,
  type FieldRow,
  type ItemRow,
  type LimitRow,
  type Resolved,
  type ResolvedDefinition,
  type ResolvedRiskType,
} from './resolve.js';
import { id, productParam, productScope, type ProductRow, type VersionDbRow } from './scope.js';

/** Path parameters and lookups shared by the risk type, field and item routes. */

export const riskTypeParams = z.strictObject({ product: productParam, riskType: z.string().trim().min(1).max(200) });
export const itemParams = riskTypeParams.extend({ item: id });

export interface DefinitionScope {
  product: ProductRow;
  version: VersionDbRow;
  definition: ResolvedDefinition;
}

export interface RiskTypeScope extends DefinitionScope {
  riskType: ResolvedRiskType;
}

export async function definitionScope(
  db: Queryable,
  productRef: string,
  versionId: number | undefined,
): Promise<DefinitionScope> {
  const { product, version } = await productScope(db, productRef, versionId);
  const definition = await resolveDefinition(db, version.id, { rateRows: false });
  return { product, version, definition };
}

/** `{riskType}` in a path: the id of a risk type row (own or an ancestor's) or its name. */
export function findRiskType(scope: DefinitionScope, ref: string): ResolvedRiskType {
  let name = ref;
  if (/^\d+$/.test(ref)) {
    const row = scope.definition.riskTypeRowsById.get(Number(ref));
    if (!row)
      throw notFound(`Risk type ${ref} not found in version ${scope.version.number} of ${scope.product.label}.`);
    name = row.name;
  }
  const found = scope.definition.riskTypes.find((t) => t.row.name.toLowerCase() === name.toLowerCase());
  if (!found) {
    throw notFound(
      /^\d+$/.test(ref)
        ? `Risk type ${ref} not found in version ${scope.version.number} of ${scope.product.label}.`
        : `Risk type '${ref}' not found in version ${scope.version.number} of ${scope.product.label}.`,
    );
  }
  return found;
}

export async function riskTypeScope(
  db: Queryable,
  productRef: string,
  versionId: number | undefined,
  riskTypeRef: string,
): Promise<RiskTypeScope> {
  const scope = await definitionScope(db, productRef, versionId);
  return { ...scope, riskType: findRiskType(scope, riskTypeRef) };
}

/** Where a row sits relative to the scope's version: 0 = own, 1+ = an ancestor product's version, -1 = elsewhere. */
export function chainIndex(scope: DefinitionScope, productVersionId: number): number {
  return scope.definition.chain.findIndex((v) => v.id === productVersionId);
}

export function productLabelAt(scope: DefinitionScope, index: number): string {
  return scope.definition.chain[index]?.productName ?? 'another product';
}

/** Refuses changing a row an ancestor product owns, naming where it can be changed. */
export function refuseInherited(scope: DefinitionScope, what: string, productVersionId: number): void {
  const at = chainIndex(scope, productVersionId);
  if (at > 0) {
    throw badRequest(
      `${what} is inherited from ${productLabelAt(scope, at)}; it can only be removed or restored there.`,
    );
  }
}

export function fieldOut(resolved: Resolved<FieldRow>, riskTypeName: string) {
  const row = resolved.row;
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    type: row.type,
    default: row.defaultValue,
    default_label: row.defaultLabel,
    source: row.source,
    order: row.order,
    required: row.required,
    format_id: row.formatId,
    options: row.options ?? [],
    formula: row.formula,
    round: row.roundPlaces === null ? null : { places: row.roundPlaces, mode: row.roundMode ?? 'half-up' },
    risk_type: riskTypeName,
    risk_type_id: row.riskTypeId,
    product_id: resolved.productId,
    inheritance_status: resolved.inheritanceStatus,
    deleted_at: row.deletedAt?.toISOString() ?? null,
  };
}

export function limitOut(resolved: Resolved<LimitRow>) {
  const row = resolved.row;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    label: row.label,
    default_value: row.defaultValue,
    min_value: row.minValue,
    max_value: row.maxValue,
    options: row.options,
    order: row.order,
    product_id: resolved.productId,
    inheritance_status: resolved.inheritanceStatus,
    deleted_at: row.deletedAt?.toISOString() ?? null,
  };
}

export function itemOut(scope: DefinitionScope, resolved: Resolved<ItemRow>, riskTypeName: string) {
  const row = resolved.row;
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    presence: row.presence,
    type: row.type,
    fully_earned: row.fullyEarned,
    order: row.order,
    premium_calculation: row.premiumCalculation,
    risk_type: riskTypeName,
    risk_type_id: row.riskTypeId,
    product_id: resolved.productId,
    inheritance_status: resolved.inheritanceStatus,
    deleted_at: row.deletedAt?.toISOString() ?? null,
    limits: limitsOf(scope.definition, riskTypeName, row.name).map(limitOut),
  };
}

export const ownStatus = (scope: DefinitionScope, productVersionId: number): InheritanceStatus =>
  chainIndex(scope, productVersionId) > 0 ? 'inherited' : 'own';

/** The resolved item of a risk type by row id (own or inherited row), or 404. */
export function findItem(scope: RiskTypeScope, itemId: number): Resolved<ItemRow> {
  const row = scope.definition.itemRowsById.get(itemId);
  const found =
    row &&
    itemsOf(scope.definition, scope.riskType.row.name).find((i) => i.row.name.toLowerCase() === row.name.toLowerCase());
  if (!found) throw notFound(`Item ${itemId} not found on risk type ${scope.riskType.row.name}.`);
  return found;
}
