import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { asRecord, listOf, num, pick, str, type Json } from '../scenarios/read-json.js';

/**
 * The calculation calls of the Lines API (`products/{p}/risk-types/{t}/calculations/`: list, create,
 * get, PUT, DELETE, `{c}/restore/`, `reorder/` with `{ order: [ids] }`) and the risk type's rating
 * context (`…/risk-types/{t}/rating-context/`), which lists the names a formula may use.
 */
export interface Calculation {
  id: number;
  name: string;
  label: string;
  calculation: string;
  order: number;
  roundPlaces: number | null;
  roundMode: string | null;
  riskItem: string | null;
  inheritanceStatus: string | null;
  deleted: boolean;
}

export interface CalculationScope {
  productId: number;
  versionId: number;
  riskTypeId: number;
}

export interface RatingContext {
  fields: { name: string; label: string; type: string }[];
  ancestorFields: { name: string; label: string; riskType: string }[];
  items: { name: string; label: string; limits: string[]; deductibles: string[] }[];
  rateTables: { name: string; label: string; keys: string[] }[];
  calculations: { name: string; label: string }[];
  children: { name: string; calculations: string[] }[];
  functions: string[];
}

const base = ({ productId, riskTypeId }: CalculationScope) =>
  `/lines/products/${productId}/risk-types/${riskTypeId}/calculations/`;

export function readCalculation(body: unknown): Calculation {
  const record = asRecord(body);
  return {
    id: num(record.id) ?? 0,
    name: str(record.name) ?? '',
    label: str(record.label) ?? '',
    calculation: str(record.calculation) ?? '',
    order: num(record.order) ?? 0,
    roundPlaces: num(pick(record, 'round_places', 'roundPlaces')),
    roundMode: str(pick(record, 'round_mode', 'roundMode')),
    riskItem: str(pick(record, 'risk_item')),
    inheritanceStatus: str(pick(record, 'inheritanceStatus', 'inheritance_status')),
    deleted: Boolean(pick(record, 'deleted_at', 'deletedAt')),
  };
}

const names = (value: unknown) =>
  listOf(value).map((entry) => {
    const record = asRecord(entry);
    return { name: str(record.name) ?? str(entry) ?? '', label: str(record.label) ?? '' };
  });

export function readRatingContext(body: unknown): RatingContext {
  const record = asRecord(body);
  return {
    fields: listOf(record.fields).map((entry) => {
      const f = asRecord(entry);
      return { name: str(f.name) ?? '', label: str(f.label) ?? '', type: str(f.type) ?? '' };
    }),
    ancestorFields: listOf(pick(record, 'ancestor_fields', 'ancestorFields')).map((entry) => {
      const f = asRecord(entry);
      return { name: str(f.name) ?? '', label: str(f.label) ?? '', riskType: str(f.risk_type) ?? '' };
    }),
    items: listOf(record.items).map((entry) => {
      const i = asRecord(entry);
      return {
        name: str(i.name) ?? '',
        label: str(i.label) ?? '',
        limits: listOf(i.limits).map((l) => str(l) ?? ''),
        deductibles: listOf(i.deductibles).map((d) => str(d) ?? ''),
      };
    }),
    rateTables: listOf(pick(record, 'rate_tables', 'rateTables')).map((entry) => {
      const t = asRecord(entry);
      return {
        name: str(t.name) ?? '',
        label: str(t.label) ?? '',
        keys: listOf(t.keys).map((k) => str(asRecord(k).name) ?? str(k) ?? ''),
      };
    }),
    calculations: names(record.calculations),
    children: listOf(record.children).map((entry) => {
      const c = asRecord(entry);
      return { name: str(c.name) ?? '', calculations: listOf(c.calculations).map((n) => str(n) ?? '') };
    }),
    functions: listOf(record.functions).map((f) => str(f) ?? ''),
  };
}

export const calculationKeys = {
  all: ['lines', 'calculations'] as const,
  list: (scope: CalculationScope, deleted: boolean) => ['lines', 'calculations', scope, { deleted }] as const,
  context: (scope: CalculationScope) => ['lines', 'rating-context', scope] as const,
};

export function useCalculations(scope: CalculationScope, includeDeleted: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: calculationKeys.list(scope, includeDeleted),
    queryFn: async ({ signal }) => {
      const query = includeDeleted
        ? { version_id: scope.versionId, include_deleted: 'true' }
        : { version_id: scope.versionId };
      const list = listOf(await api.get(base(scope), { query, signal })).map(readCalculation);
      return list.sort((a, b) => a.order - b.order || a.id - b.id);
    },
  });
}

export function useRatingContext(scope: CalculationScope) {
  const api = useApiClient();
  return useQuery({
    queryKey: calculationKeys.context(scope),
    queryFn: async ({ signal }) =>
      readRatingContext(
        await api.get(`/lines/products/${scope.productId}/risk-types/${scope.riskTypeId}/rating-context/`, {
          query: { version_id: scope.versionId },
          signal,
        }),
      ),
  });
}

export interface CalculationInput {
  name: string;
  label: string;
  calculation: string;
  round_places: number | null;
  round_mode: string | null;
}

function useCalculationWrite<V, R = unknown>(write: (api: ApiClient, v: V) => Promise<R>) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => write(api, variables),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: calculationKeys.all });
      // A new or renamed calculation is a new name for completion.
      void queryClient.invalidateQueries({ queryKey: ['lines', 'rating-context'] });
    },
  });
}

export function useCalculationActions(scope: CalculationScope) {
  const query = { version_id: scope.versionId };
  return {
    create: useCalculationWrite((api, input: CalculationInput) =>
      api.post<Json>(base(scope), input, { query }).then(readCalculation),
    ),
    save: useCalculationWrite((api, { id, input }: { id: number; input: CalculationInput }) =>
      api.put<Json>(`${base(scope)}${id}/`, input, { query }).then(readCalculation),
    ),
    remove: useCalculationWrite((api, id: number) => api.delete(`${base(scope)}${id}/`, { query })),
    restore: useCalculationWrite((api, id: number) => api.post(`${base(scope)}${id}/restore/`, {}, { query })),
    reorder: useCalculationWrite((api, ids: number[]) => api.post(`${base(scope)}reorder/`, { order: ids }, { query })),
  };
}
