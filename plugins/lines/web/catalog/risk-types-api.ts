import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { asRecord, bool, field, LINES_API, listOf, num, str, versionQuery, type Json } from './api-shared.js';

/** Risk types, risk fields, risk items with limits and deductibles, field formats (spec 7). */

export type InheritanceStatus = 'own' | 'overridden' | 'inherited' | string;
export const FIELD_TYPES = ['date', 'boolean', 'string', 'number', 'enum', 'computed'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const ITEM_PRESENCES = ['required', 'default', 'optional'] as const;
export const ITEM_TYPES = ['coverage', 'endorsement', 'fee', 'tax', 'surcharge', 'discount'] as const;
export const LIMIT_KINDS = ['limit', 'deductible'] as const;

export interface RiskType {
  id: number;
  name: string;
  label: string;
  parentRiskTypeId: number | null;
  sequence: number;
  inheritanceStatus: InheritanceStatus | null;
  children: RiskType[];
}

export interface FieldOption {
  value: string;
  label?: string;
}

export interface RiskField {
  id: number;
  name: string;
  label: string;
  type: FieldType | string;
  default: string | null;
  source: string | null;
  order: number;
  required: boolean;
  formatId: number | null;
  options: FieldOption[];
  formula: string | null;
  inheritanceStatus: InheritanceStatus | null;
  deleted: boolean;
}

export interface ItemLimit {
  id: number;
  kind: 'limit' | 'deductible' | string;
  name: string;
  label: string;
  defaultValue: string | null;
  minValue: string | null;
  maxValue: string | null;
  options: string[];
  order: number;
  deleted: boolean;
}

export interface RiskItem {
  id: number;
  name: string;
  label: string;
  presence: string;
  type: string;
  fullyEarned: boolean;
  order: number;
  inheritanceStatus: InheritanceStatus | null;
  deleted: boolean;
  limits: ItemLimit[];
}

export interface FieldFormat {
  id: number;
  name: string;
  label: string;
  fieldTypes: string[];
}

const base = (productId: number) => `${LINES_API}/products/${productId}/risk-types/`;
export const riskTypePaths = {
  riskTypes: base,
  riskType: (p: number, t: number) => `${base(p)}${t}/`,
  copy: (p: number, t: number) => `${base(p)}${t}/copy/`,
  fields: (p: number, t: number) => `${base(p)}${t}/risk-fields/`,
  field: (p: number, t: number, f: number) => `${base(p)}${t}/risk-fields/${f}/`,
  fieldsReorder: (p: number, t: number) => `${base(p)}${t}/risk-fields/reorder/`,
  fieldRestore: (p: number, t: number, f: number) => `${base(p)}${t}/risk-fields/${f}/restore/`,
  items: (p: number, t: number) => `${base(p)}${t}/risk-items/`,
  item: (p: number, t: number, i: number) => `${base(p)}${t}/risk-items/${i}/`,
  itemsReorder: (p: number, t: number) => `${base(p)}${t}/risk-items/reorder/`,
  itemRestore: (p: number, t: number, i: number) => `${base(p)}${t}/risk-items/${i}/restore/`,
  limits: (p: number, t: number, i: number) => `${base(p)}${t}/risk-items/${i}/limits/`,
  limit: (p: number, t: number, i: number, l: number) => `${base(p)}${t}/risk-items/${i}/limits/${l}/`,
  fieldFormats: `${LINES_API}/field-formats/`,
};

const inheritance = (r: Json) => str(field(r, 'inheritanceStatus', 'inheritance_status'));
const deletedOf = (r: Json) => bool(r.deleted) || field(r, 'deleted_at', 'deletedAt') != null;

export function toRiskType(raw: unknown): RiskType {
  const r = asRecord(raw);
  const parent = field(r, 'parent_risk_type_id', 'parentRiskTypeId', 'parentRiskType', 'parent_risk_type');
  const children = field(r, 'children', 'child_risk_types', 'childRiskTypes', 'risk_types');
  return {
    id: num(r.id) ?? 0,
    name: str(r.name) ?? '',
    label: str(r.label) ?? str(r.name) ?? '',
    parentRiskTypeId: num(parent) ?? num(asRecord(parent).id),
    sequence: num(r.sequence) ?? 0,
    inheritanceStatus: inheritance(r),
    children: Array.isArray(children) ? children.map(toRiskType) : [],
  };
}

export function toField(raw: unknown): RiskField {
  const r = asRecord(raw);
  const type = field(r, 'type');
  const options = field(r, 'options');
  return {
    id: num(r.id) ?? 0,
    name: str(r.name) ?? '',
    label: str(r.label) ?? '',
    type: str(type) ?? str(asRecord(type).name) ?? 'string',
    default: str(field(r, 'default', 'default_value', 'defaultValue')),
    source: str(r.source),
    order: num(r.order) ?? 0,
    required: bool(r.required),
    formatId: num(field(r, 'format_id', 'formatId')) ?? num(asRecord(r.format).id),
    options: Array.isArray(options)
      ? options.map((o) =>
          typeof o === 'string'
            ? { value: o }
            : { value: str(asRecord(o).value) ?? '', label: str(asRecord(o).label) ?? undefined },
        )
      : [],
    formula: str(r.formula),
    inheritanceStatus: inheritance(r),
    deleted: deletedOf(r),
  };
}

export function toLimit(raw: unknown): ItemLimit {
  const r = asRecord(raw);
  const options = field(r, 'options');
  return {
    id: num(r.id) ?? 0,
    kind: str(r.kind) ?? 'limit',
    name: str(r.name) ?? '',
    label: str(r.label) ?? '',
    defaultValue: str(field(r, 'default_value', 'defaultValue', 'default')),
    minValue: str(field(r, 'min_value', 'minValue')),
    maxValue: str(field(r, 'max_value', 'maxValue')),
    options: Array.isArray(options) ? options.map((o) => String(o)) : [],
    order: num(r.order) ?? 0,
    deleted: deletedOf(r),
  };
}

export function toItem(raw: unknown): RiskItem {
  const r = asRecord(raw);
  const limits = [...listOf(r.limits), ...listOf(r.deductibles)].map(toLimit);
  return {
    id: num(r.id) ?? 0,
    name: str(r.name) ?? '',
    label: str(r.label) ?? '',
    presence: str(r.presence) ?? 'optional',
    type: str(r.type) ?? 'coverage',
    fullyEarned: bool(field(r, 'fully_earned', 'fullyEarned')),
    order: num(r.order) ?? 0,
    inheritanceStatus: inheritance(r),
    deleted: deletedOf(r),
    // A deductible may come in both lists; keep one of each id.
    limits: limits.filter((l, i) => limits.findIndex((o) => o.id === l.id && o.kind === l.kind) === i),
  };
}

/** Nests a flat risk-type list by parent; already nested lists keep their children. */
export function nestRiskTypes(types: RiskType[]): RiskType[] {
  if (types.some((t) => t.children.length))
    return types.filter((t) => t.parentRiskTypeId === null || !types.some((o) => o.id === t.parentRiskTypeId));
  const build = (type: RiskType): RiskType => ({
    ...type,
    children: types.filter((t) => t.parentRiskTypeId === type.id).map(build),
  });
  return types.filter((t) => t.parentRiskTypeId === null || !types.some((o) => o.id === t.parentRiskTypeId)).map(build);
}

export function flattenRiskTypes(types: RiskType[]): RiskType[] {
  return types.flatMap((t) => [t, ...flattenRiskTypes(t.children)]);
}

export const riskTypeKeys = {
  all: ['lines', 'risk-types'] as const,
  tree: (productId: number, versionId: number | null) => ['lines', 'risk-types', productId, versionId] as const,
  fields: (productId: number, versionId: number | null, riskTypeId: number) =>
    ['lines', 'risk-types', productId, versionId, riskTypeId, 'fields'] as const,
  items: (productId: number, versionId: number | null, riskTypeId: number) =>
    ['lines', 'risk-types', productId, versionId, riskTypeId, 'items'] as const,
  formats: ['lines', 'field-formats'] as const,
};

export async function fetchRiskTypes(
  api: Pick<ApiClient, 'get'>,
  productId: number,
  versionId: number | null,
  signal?: AbortSignal,
) {
  const body = await api.get(riskTypePaths.riskTypes(productId), { query: versionQuery(versionId), signal });
  return nestRiskTypes(listOf(body).map(toRiskType));
}

export function useRiskTypes(productId: number | null, versionId: number | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: riskTypeKeys.tree(productId ?? 0, versionId),
    enabled: productId !== null,
    queryFn: ({ signal }) => fetchRiskTypes(api, productId!, versionId, signal),
  });
}

export function useRiskFields(
  productId: number,
  versionId: number | null,
  riskTypeId: number | null,
  includeDeleted: boolean,
) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...riskTypeKeys.fields(productId, versionId, riskTypeId ?? 0), includeDeleted],
    enabled: riskTypeId !== null,
    queryFn: async ({ signal }) => {
      const read = (deleted: boolean) =>
        api.get(riskTypePaths.fields(productId, riskTypeId!), {
          query: { ...versionQuery(versionId), deleted: deleted ? 'true' : undefined },
          signal,
        });
      // The server lists live fields, or with deleted=true only this version's deleted ones.
      const [live, deleted] = await Promise.all([read(false), includeDeleted ? read(true) : Promise.resolve([])]);
      return [
        ...listOf(live)
          .map(toField)
          .sort((a, b) => a.order - b.order || a.id - b.id),
        ...listOf(deleted)
          .map(toField)
          .map((f) => ({ ...f, deleted: true })),
      ];
    },
  });
}

export function useRiskItems(
  productId: number,
  versionId: number | null,
  riskTypeId: number | null,
  includeDeleted = false,
) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...riskTypeKeys.items(productId, versionId, riskTypeId ?? 0), includeDeleted],
    enabled: riskTypeId !== null,
    queryFn: async ({ signal }) => {
      const read = (deleted: boolean) =>
        api.get(riskTypePaths.items(productId, riskTypeId!), {
          query: { ...versionQuery(versionId), deleted: deleted ? 'true' : undefined },
          signal,
        });
      // Live items, and with deleted=true this version's deleted ones (to restore).
      const [live, deleted] = await Promise.all([read(false), includeDeleted ? read(true) : Promise.resolve([])]);
      return [
        ...listOf(live)
          .map(toItem)
          .sort((a, b) => a.order - b.order || a.id - b.id),
        ...listOf(deleted)
          .map(toItem)
          .map((i) => ({ ...i, deleted: true })),
      ];
    },
  });
}

export function useFieldFormats() {
  const api = useApiClient();
  return useQuery({
    queryKey: riskTypeKeys.formats,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) =>
      listOf(await api.get(riskTypePaths.fieldFormats, { signal })).map((raw): FieldFormat => {
        const r = asRecord(raw);
        const types = field(r, 'field_types', 'fieldTypes');
        return {
          id: num(r.id) ?? 0,
          name: str(r.name) ?? '',
          label: str(r.label) ?? str(r.name) ?? '',
          fieldTypes: Array.isArray(types) ? types.map(String) : [],
        };
      }),
  });
}

export function useRiskTypesChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: riskTypeKeys.all });
}

/** The body of a field create/update, as the editor form sends it. */
export interface FieldValues {
  name: string;
  label: string;
  type: string;
  default_value: string | null;
  source: string | null;
  required: boolean;
  format_id: number | null;
  options: FieldOption[] | null;
  formula: string | null;
}

type Api = Pick<ApiClient, 'post' | 'put' | 'patch' | 'delete'>;
const q = (versionId: number) => ({ query: versionQuery(versionId) });

export const riskTypeWrites = {
  createRiskType: (
    api: Api,
    p: number,
    v: number,
    values: { name: string; label: string; parent_risk_type_id: number | null },
  ) => api.post<Json>(riskTypePaths.riskTypes(p), values, q(v)),
  copyRiskType: (api: Api, p: number, v: number, t: number, values: { name: string; label: string }) =>
    api.post<Json>(riskTypePaths.copy(p, t), values, q(v)),
  deleteRiskType: (api: Api, p: number, v: number, t: number) => api.delete(riskTypePaths.riskType(p, t), q(v)),
  createField: (api: Api, p: number, v: number, t: number, values: FieldValues) =>
    api.post<Json>(riskTypePaths.fields(p, t), values, q(v)),
  updateField: (api: Api, p: number, v: number, t: number, f: number, values: FieldValues) =>
    api.put<Json>(riskTypePaths.field(p, t, f), values, q(v)),
  deleteField: (api: Api, p: number, v: number, t: number, f: number) => api.delete(riskTypePaths.field(p, t, f), q(v)),
  restoreField: (api: Api, p: number, v: number, t: number, f: number) =>
    api.post<Json>(riskTypePaths.fieldRestore(p, t, f), {}, q(v)),
  reorderFields: (api: Api, p: number, v: number, t: number, ids: number[]) =>
    api.post<Json>(riskTypePaths.fieldsReorder(p, t), { order: ids }, q(v)),
  createItem: (api: Api, p: number, v: number, t: number, values: ItemValues) =>
    api.post<Json>(riskTypePaths.items(p, t), values, q(v)),
  updateItem: (api: Api, p: number, v: number, t: number, i: number, values: ItemValues) =>
    api.put<Json>(riskTypePaths.item(p, t, i), values, q(v)),
  deleteItem: (api: Api, p: number, v: number, t: number, i: number) => api.delete(riskTypePaths.item(p, t, i), q(v)),
  restoreItem: (api: Api, p: number, v: number, t: number, i: number) =>
    api.post<Json>(riskTypePaths.itemRestore(p, t, i), {}, q(v)),
  reorderItems: (api: Api, p: number, v: number, t: number, ids: number[]) =>
    api.post<Json>(riskTypePaths.itemsReorder(p, t), { order: ids }, q(v)),
  createLimit: (api: Api, p: number, v: number, t: number, i: number, values: LimitValues) =>
    api.post<Json>(riskTypePaths.limits(p, t, i), values, q(v)),
  updateLimit: (api: Api, p: number, v: number, t: number, i: number, l: number, values: LimitValues) =>
    api.put<Json>(riskTypePaths.limit(p, t, i, l), values, q(v)),
  deleteLimit: (api: Api, p: number, v: number, t: number, i: number, l: number) =>
    api.delete(riskTypePaths.limit(p, t, i, l), q(v)),
};

export interface ItemValues {
  name: string;
  label: string;
  presence: string;
  type: string;
  fully_earned: boolean;
}

export interface LimitValues {
  kind: string;
  name: string;
  label: string;
  default_value: string | null;
  min_value: string | null;
  max_value: string | null;
}
