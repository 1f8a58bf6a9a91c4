import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  firstErrorDetail,
  isApiRequestError,
  useApiClient,
  useHostServices,
  type ApiClient,
  type QueryParams,
} from '@atrium/sdk';
import type { Statement } from '../shared/statement-schema.js';

/** The access service's resources as it answers them (`/api/access/…`, docs/access.md). */
export interface Page<T> {
  results: T[];
  count: number;
  next: string | null;
  previous: string | null;
}

export type PolicyType = 'system' | 'custom';

export interface Policy {
  id: number;
  name: string;
  description: string;
  version: string;
  date_added: string;
  statements: Statement[] | unknown[];
  type: PolicyType;
}

export interface Role {
  id: number;
  name: string;
  gen2_role: string | null;
}

export interface PolicyAssignment {
  id: number;
  policy_id: number;
  role: string;
}

export interface RoleUserNameAssignment {
  id: number;
  user_name: string;
  role: string;
}

export interface RoleGroupNameAssignment {
  id: number;
  group_name: string;
  role: string;
}

export interface DirectoryUser {
  username: string;
  roles: string[];
}

export interface DirectoryGroup {
  name: string;
  roles: string[];
}

export interface ValidationResult {
  valid: boolean;
  errors: { detail: string; pointer: string; code?: string }[];
}

export const ACCESS_API = '/access';
/** Policies, roles and users come in pages of 15 (the service's default). */
export const PAGE_SIZE = 15;
/** Groups and assignments are read whole (the service allows up to 10000 a page). */
export const ALL = 10000;

export const accessKeys = {
  all: ['access-module'] as const,
  list: (resource: string, query: QueryParams) => ['access-module', resource, query] as const,
  policy: (id: number) => ['access-module', 'policies', id] as const,
};

export function useAccessList<T>(resource: string, query: QueryParams) {
  const api = useApiClient();
  return useQuery({
    queryKey: accessKeys.list(resource, query),
    queryFn: ({ signal }) => api.get<Page<T>>(`${ACCESS_API}/${resource}`, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePolicy(id: number | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: accessKeys.policy(id ?? 0),
    queryFn: ({ signal }) => api.get<Policy>(`${ACCESS_API}/policies/${id}`, { signal }),
    enabled: id !== null,
  });
}

/**
 * After any write: the module's lists refetch, and the host's evaluation cache is dropped (the
 * change may alter what the current role may see).
 */
export function useAccessChanged() {
  const queryClient = useQueryClient();
  const services = useHostServices();
  return () => {
    services.access?.clear();
    return queryClient.invalidateQueries({ queryKey: accessKeys.all });
  };
}

/** A write whose success refreshes the module's data. */
export function useAccessMutation<Variables, Result = unknown>(
  write: (api: ApiClient, variables: Variables) => Promise<Result>,
) {
  const api = useApiClient();
  const changed = useAccessChanged();
  return useMutation({
    mutationFn: (variables: Variables) => write(api, variables),
    onSuccess: () => changed(),
  });
}

/** `-name` ⇄ `name`: the list ordering parameter for a column header click. */
export function toggleOrdering(current: string, field: string): string {
  if (current === field) return `-${field}`;
  return field;
}

/** The server's own words for a failure (e.g. 'Policy 2 not found.'), else the client's message. */
export function errorMessageOf(error: unknown): string {
  if (isApiRequestError(error))
    return error.errors.find((e) => e.detail)?.detail || firstErrorDetail(error.body) || error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Runs one request per item, all of them, and reports which failed and why. */
export async function runBatch<Item>(
  items: readonly Item[],
  run: (item: Item) => Promise<unknown>,
): Promise<{ item: Item; errorMessage: string }[]> {
  const outcomes = await Promise.allSettled(items.map((item) => run(item)));
  return outcomes.flatMap((outcome, index) =>
    outcome.status === 'rejected' ? [{ item: items[index]!, errorMessage: errorMessageOf(outcome.reason) }] : [],
  );
}

/** The file name from `content-disposition: attachment; filename="…"`. */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  const match = header && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return match ? decodeURIComponent(match[1]!) : fallback;
}
