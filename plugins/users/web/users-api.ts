import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  firstErrorDetail,
  isApiRequestError,
  useApiClient,
  type ApiClient,
  type JsonApiDocument,
  type JsonApiResource,
  type QueryParams,
} from '@atrium/sdk';

/**
 * The identity module's user management (JSON:API, docs/identity.md "User management") as the Users
 * module reads and writes it.
 */
export const USER_MANAGEMENT_API = '/identity/user-management';
/** Spec "Business constants": user management pages users by 200 and groups by 60. */
export const USERS_PAGE_SIZE = 200;
export const GROUPS_PAGE_SIZE = 60;
/** The spec's list page size for users lists. */
export const USERS_LIST_PAGE_SIZE = 15;

export type UserStatus = 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED';

export interface ManagedUser {
  id: string;
  username: string;
  name: string;
  email: string | null;
  phone_number: string | null;
  is_active: boolean;
  is_employee: boolean;
  /** Agents: the producer contact they stand for; agents and agencies: their agency's contact. */
  contact_id: string | null;
  agency_id: string | null;
  status: UserStatus | string;
  mfa_enabled: boolean;
  created_at: string | null;
  /** Group ids (the `groups` relationship), when the server sent it. */
  groupIds: string[];
}

export interface ManagedGroup {
  id: string;
  name: string;
  description: string | null;
}

export interface PasswordPolicy {
  minimum_length: number;
  require_lowercase: boolean;
  require_uppercase: boolean;
  require_numbers: boolean;
  require_symbols: boolean;
  password_history_size: number;
  temporary_password_validity_days: number;
}

export type MfaConfiguration = 'off' | 'optional' | 'required';

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function relationshipIds(resource: JsonApiResource, name: string): string[] {
  const relationship = resource.relationships?.[name] as { data?: { id?: unknown }[] | null } | undefined;
  return Array.isArray(relationship?.data)
    ? relationship.data.flatMap((item) => (typeof item.id === 'string' ? [item.id] : []))
    : [];
}

export function toUser(resource: JsonApiResource): ManagedUser {
  const a = resource.attributes ?? {};
  return {
    id: resource.id,
    username: str(a.username) ?? '',
    name: str(a.name) ?? '',
    email: str(a.email),
    phone_number: str(a.phone_number),
    is_active: a.is_active !== false,
    is_employee: a.is_employee === true,
    contact_id: str(a.contact_id),
    agency_id: str(a.agency_id),
    status: str(a.status) ?? '',
    mfa_enabled: a.mfa_enabled === true,
    created_at: str(a.created_at),
    groupIds: relationshipIds(resource, 'groups'),
  };
}

export function toGroup(resource: JsonApiResource): ManagedGroup {
  const a = resource.attributes ?? {};
  return { id: resource.id, name: str(a.name) ?? '', description: str(a.description) };
}

export const usersKeys = {
  all: ['users-module'] as const,
  list: (query: QueryParams) => ['users-module', 'users', query] as const,
  groups: ['users-module', 'groups'] as const,
  user: (username: string) => ['users-module', 'user', username] as const,
  settings: (name: string) => ['users-module', 'settings', name] as const,
};

/** Every group (pages of 60, following the pages), by name. */
export function useAllGroups() {
  const api = useApiClient();
  return useQuery({
    queryKey: usersKeys.groups,
    queryFn: async ({ signal }) => {
      const all = await api.jsonApiFetchAll(`${USER_MANAGEMENT_API}/groups`, {
        pageSize: GROUPS_PAGE_SIZE,
        query: { sort: 'name' },
        signal,
      });
      return all.data.map(toGroup);
    },
  });
}

export interface UserListQuery {
  search: string;
  active: 'all' | 'true' | 'false';
  group: string | null;
  page: number;
}

/** One page of users for the list (15 a page), with the server's filters. */
export function userListParams(query: UserListQuery): QueryParams {
  return {
    'page[number]': query.page,
    'page[size]': USERS_LIST_PAGE_SIZE,
    sort: 'username',
    include: 'groups',
    'filter[search]': query.search.trim() || undefined,
    'filter[is_active]': query.active === 'all' ? undefined : query.active,
    'filter[group]': query.group ?? undefined,
  };
}

export function useUserList(query: UserListQuery) {
  const api = useApiClient();
  const params = userListParams(query);
  return useQuery({
    queryKey: usersKeys.list(params),
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(`${USER_MANAGEMENT_API}/users`, {
        jsonApi: true,
        query: params,
        signal,
      });
      const users = (document.data ?? []).map(toUser);
      const count = typeof document.meta?.count === 'number' ? document.meta.count : users.length;
      return { users, count };
    },
  });
}

/** One user by username (`filter[username]`, groups included); null when there is none. */
export async function fetchUserByUsername(
  api: Pick<ApiClient, 'get'>,
  username: string,
  signal?: AbortSignal,
): Promise<ManagedUser | null> {
  const document = await api.get<JsonApiDocument<JsonApiResource[]>>(`${USER_MANAGEMENT_API}/users`, {
    jsonApi: true,
    query: { 'filter[username]': username.toLowerCase(), include: 'groups', 'page[size]': USERS_PAGE_SIZE },
    signal,
  });
  const found = (document.data ?? []).map(toUser).find((u) => u.username === username.toLowerCase());
  return found ?? null;
}

/** After a write: the module's lists and records refetch. */
export function useUsersChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: usersKeys.all });
}

export const groupLinkage = (ids: readonly string[]) => ids.map((id) => ({ type: 'group', id }));

/** `PATCH users/{id}` with `is_active`. */
export function setUserActive(api: Pick<ApiClient, 'patch'>, user: Pick<ManagedUser, 'id'>, active: boolean) {
  return api.patch(
    `${USER_MANAGEMENT_API}/users/${user.id}`,
    { data: { type: 'user', id: user.id, attributes: { is_active: active } } },
    { jsonApi: true },
  );
}

/** The temporary password from an answer's `meta.temporary_password`, if any. */
export function temporaryPasswordOf(document: unknown): string | null {
  const meta = (document as { meta?: { temporary_password?: unknown } } | null | undefined)?.meta;
  return typeof meta?.temporary_password === 'string' ? meta.temporary_password : null;
}

/** The server's own words for a failure, else the client's message. */
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

/**
 * Agents and agencies: an effective role whose name contains "Agent" or "Agency" (spec: Roles and
 * permissions; case-sensitive like the host's check, so "Management" is not one).
 */
export function isAgentRole(role: string | null | undefined): boolean {
  return typeof role === 'string' && (role.includes('Agent') || role.includes('Agency'));
}

/**
 * Roles are the access module's (`/api/access/…`, docs/access.md): a user holds a role through a
 * role-user-name assignment. The Users pages show and change them through that API.
 */
export const ACCESS_API = '/access';
const ALL = 10000;

interface AccessPage<T> {
  results: T[];
}

export interface UserRoleAssignment {
  id: number;
  user_name: string;
  role: string;
}

/** Every role's name, in name order. */
export function useRoleNames(enabled = true) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...usersKeys.all, 'roles'],
    enabled,
    queryFn: async ({ signal }) => {
      const page = await api.get<AccessPage<{ name: string }>>(`${ACCESS_API}/roles`, {
        query: { page_size: ALL, ordering: 'name' },
        signal,
      });
      return page.results.map((r) => r.name);
    },
  });
}

/** The roles given to the user directly (not through a group). */
export function useUserRoles(username: string, enabled = true) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...usersKeys.user(username), 'roles'],
    enabled,
    queryFn: async ({ signal }) => {
      const page = await api.get<AccessPage<UserRoleAssignment>>(`${ACCESS_API}/role-user-name-assignments`, {
        query: { user_name: username, page_size: ALL, ordering: 'role' },
        signal,
      });
      return page.results;
    },
  });
}

/**
 * Gives the user the `wanted` roles: assigns the missing ones and removes the others. Answers the
 * roles that could not be changed, with the server's reason.
 */
export async function saveUserRoles(
  api: Pick<ApiClient, 'post' | 'delete'>,
  username: string,
  current: readonly UserRoleAssignment[],
  wanted: readonly string[],
): Promise<{ item: string; errorMessage: string }[]> {
  const held = new Set(current.map((a) => a.role));
  const added = wanted.filter((role) => !held.has(role));
  const removed = current.filter((a) => !wanted.includes(a.role));
  const failedAdds = await runBatch(added, (role) =>
    api.post(`${ACCESS_API}/role-user-name-assignments`, { user_name: username, role }),
  );
  const failedRemovals = await runBatch(removed, (a) => api.delete(`${ACCESS_API}/role-user-name-assignments/${a.id}`));
  return [...failedAdds, ...failedRemovals.map((f) => ({ item: f.item.role, errorMessage: f.errorMessage }))];
}
