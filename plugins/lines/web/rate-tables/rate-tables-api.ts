import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { asRecord, listOf, num, pick, str, type Json } from '../scenarios/read-json.js';
import type { KeyColumn, TableRow } from './rate-table-grid-model.js';

/**
 * The rate-table calls of the Lines API (base /api/lines, `version_id` query), and what the screens
 * read from their answers. Every path is built here, so a renamed route is one fix.
 */
export interface RateTableSummary {
  id: number;
  name: string;
  label: string;
  rowsCount: number;
  validityState: string;
  inheritanceStatus: string | null;
  deleted: boolean;
}

export interface RateTableDetail extends RateTableSummary {
  keyColumns: KeyColumn[];
  interpolate: string | null;
  default: string | null;
  rows: TableRow[];
}

export interface RateTableScope {
  productId: number;
  versionId: number;
  riskTypeId: number;
}

export const rateTablesPath = ({ productId, riskTypeId }: RateTableScope) =>
  `/lines/products/${productId}/risk-types/${riskTypeId}/rate-tables/`;
const tablePath = (scope: RateTableScope, id: number) => `${rateTablesPath(scope)}${id}/`;

export function readRateTableSummary(body: unknown): RateTableSummary {
  const record = asRecord(body);
  return {
    id: num(record.id) ?? 0,
    name: str(record.name) ?? '',
    label: str(record.label) ?? '',
    rowsCount: num(pick(record, 'rowsCount', 'rows_count')) ?? 0,
    validityState: str(pick(record, 'validityState', 'validity_state')) ?? '',
    inheritanceStatus: str(pick(record, 'inheritanceStatus', 'inheritance_status')),
    deleted: Boolean(pick(record, 'deletedAt', 'deleted_at', 'deleted')),
  };
}

function readKeyColumns(value: unknown): KeyColumn[] {
  return listOf(value).map((entry) => {
    const record = asRecord(entry);
    const label = str(record.label);
    return {
      name: str(record.name) ?? '',
      ...(label ? { label } : {}),
      match: record.match === 'range' ? ('range' as const) : ('exact' as const),
    };
  });
}

export function readRateTable(body: unknown): RateTableDetail {
  const record = asRecord(pick(asRecord(body), 'rateTable', 'rate_table') ?? body);
  const rows = listOf(record.rows).map((entry) => {
    const row = asRecord(entry);
    return { keys: asRecord(row.keys) as TableRow['keys'], value: str(row.value) ?? '' };
  });
  return {
    ...readRateTableSummary(record),
    keyColumns: readKeyColumns(pick(record, 'keyColumns', 'key_columns', 'keys')),
    interpolate: str(record.interpolate),
    default: str(pick(record, 'default', 'defaultValue', 'default_value')),
    rows,
  };
}

export const rateTableKeys = {
  all: ['lines', 'rate-tables'] as const,
  list: (scope: RateTableScope, deleted: boolean) => ['lines', 'rate-tables', scope, { deleted }] as const,
  one: (scope: RateTableScope, id: number) => ['lines', 'rate-tables', scope, id] as const,
};

export function useRateTables(scope: RateTableScope, includeDeleted: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: rateTableKeys.list(scope, includeDeleted),
    queryFn: async ({ signal }) => {
      const query = includeDeleted
        ? { version_id: scope.versionId, include_deleted: 'true' }
        : { version_id: scope.versionId };
      const body = await api.get(rateTablesPath(scope), { query, signal });
      return listOf(body).map(readRateTableSummary);
    },
  });
}

export function useRateTable(scope: RateTableScope, id: number | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: rateTableKeys.one(scope, id ?? 0),
    enabled: id !== null && id > 0,
    queryFn: async ({ signal }) =>
      readRateTable(await api.get(tablePath(scope, id!), { query: { version_id: scope.versionId }, signal })),
  });
}

/** What the editor saves: the table's definition and all of its rows. */
export interface RateTableInput {
  name: string;
  label: string;
  key_columns: KeyColumn[];
  interpolate: string | null;
  default: string | null;
  rows: TableRow[];
}

/** A write that refreshes the tables of this risk type when it succeeds. */
function useRateTableWrite<V, R = unknown>(scope: RateTableScope, write: (api: ApiClient, v: V) => Promise<R>) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => write(api, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rateTableKeys.all }),
  });
}

export function useRateTableActions(scope: RateTableScope) {
  const query = { version_id: scope.versionId };
  return {
    create: useRateTableWrite(scope, (api, input: RateTableInput) =>
      api.post<Json>(rateTablesPath(scope), input, { query }).then(readRateTable),
    ),
    save: useRateTableWrite(scope, (api, { id, input }: { id: number; input: RateTableInput }) =>
      api.put<Json>(tablePath(scope, id), input, { query }).then(readRateTable),
    ),
    remove: useRateTableWrite(scope, (api, id: number) => api.delete(tablePath(scope, id), { query })),
    restore: useRateTableWrite(scope, (api, id: number) => api.post(`${tablePath(scope, id)}restore/`, {}, { query })),
    reorder: useRateTableWrite(scope, (api, ids: number[]) =>
      api.post(`${rateTablesPath(scope)}reorder/`, { order: ids }, { query }),
    ),
    /** A CSV or XLSX file replacing the rows (the server reads the header to find the columns). */
    importFile: useRateTableWrite(scope, (api, { id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append('file', file);
      return api.post<Json>(`${tablePath(scope, id)}import/`, form, { query }).then(readRateTable);
    }),
  };
}

/** The export's URL (CSV or XLSX); the editor downloads it with the user's token. */
export const rateTableExportPath = (scope: RateTableScope, id: number, format: 'csv' | 'xlsx') =>
  `${tablePath(scope, id)}export/?version_id=${scope.versionId}&format=${format}`;
