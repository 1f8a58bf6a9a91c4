import type { ApiClient, JsonApiDocument, JsonApiResource } from './api-client.js';
import { defaultPageSize, type ResourceShape } from '../shared/resource-shape.js';

/**
 * The web half of a resource declaration: one typed client per shared shape (`@atrium/sdk/shared`)
 * that lists (a page, or every page), finds, creates, changes (PATCH with the ETag it read as
 * If-Match; a stale one is the server's 412) and deletes, in the resource's own document style, with
 * TanStack Query keys and query options. Screens use it instead of a hand-written `*-api.ts` per
 * collection. docs/plugins.md, "A resource in one declaration".
 *
 * Items are flat: `id`, the attributes, `<relationship>_id` for each to-one relationship and
 * `<relationship>_ids` for each to-many one.
 */
export type ResourceItem = { id: string } & Record<string, unknown>;

export interface ResourceListParams<S extends ResourceShape> {
  filters?: Partial<Record<keyof NonNullable<S['filters']> & string, string | number | boolean | null | undefined>>;
  /** 1-based. */
  page?: number;
  size?: number;
  /** One of the shape's orderings, '-' first to descend. */
  ordering?: string;
}

export interface ResourcePage {
  items: ResourceItem[];
  count: number;
  pages: number;
}

export interface ResourceWithEtag {
  item: ResourceItem;
  etag: string | null;
}

export interface ResourceWrite {
  attributes?: Record<string, unknown>;
  /** To-one relationships by name: the related id, or null to clear it. */
  relationships?: Record<string, string | null>;
}

/** A JSON:API resource object as a flat item. */
export function flattenResource(resource: JsonApiResource): ResourceItem {
  const flat: ResourceItem = { id: resource.id, ...(resource.attributes ?? {}) };
  for (const [name, value] of Object.entries(resource.relationships ?? {})) {
    const data = (value as { data?: { id: unknown } | { id: unknown }[] | null } | null)?.data;
    if (data === null) flat[`${name}_id`] = null;
    else if (Array.isArray(data)) flat[`${name}_ids`] = data.map((related) => String(related.id));
    else if (data) flat[`${name}_id`] = String(data.id);
  }
  return flat;
}

export function resourceClient<const S extends ResourceShape>(shape: S) {
  const jsonApi = shape.style === 'jsonapi';
  const root = ['resource', shape.type] as const;
  const one = (id: string) => `${shape.path}${encodeURIComponent(id)}/`;

  const queryOf = (params: ResourceListParams<S>, page: number, size: number) => {
    const query: Record<string, string | number> = shape.unpaged
      ? {}
      : jsonApi
        ? { 'page[number]': page, 'page[size]': size }
        : { page, page_size: size };
    for (const [name, value] of Object.entries(params.filters ?? {})) {
      if (value === undefined || value === null || value === '') continue;
      query[jsonApi ? `filter[${name}]` : name] = typeof value === 'boolean' ? String(value) : value;
    }
    if (params.ordering) query[jsonApi ? 'sort' : 'ordering'] = params.ordering;
    return query;
  };

  const body = (write: ResourceWrite, id?: string) => {
    if (!jsonApi) return write.attributes ?? {};
    const relationships = write.relationships
      ? Object.fromEntries(
          Object.entries(write.relationships).map(([name, related]) => [
            name,
            { data: related === null ? null : { type: shape.relationships?.[name]?.type ?? name, id: related } },
          ]),
        )
      : undefined;
    return {
      data: {
        type: shape.type,
        ...(id ? { id } : {}),
        attributes: write.attributes ?? {},
        ...(relationships ? { relationships } : {}),
      },
    };
  };

  const itemOf = (answer: unknown): ResourceItem =>
    jsonApi
      ? flattenResource((answer as JsonApiDocument<JsonApiResource>).data)
      : { ...(answer as Record<string, unknown>), id: String((answer as { id: unknown }).id) };

  const client = {
    shape,
    keys: {
      all: root,
      lists: () => [...root, 'list'] as const,
      list: (params: ResourceListParams<S>) => [...root, 'list', params] as const,
      everything: (params: ResourceListParams<S>) => [...root, 'all', params] as const,
      one: (id: string) => [...root, 'one', id] as const,
    },

    /** One page. */
    async list(
      api: Pick<ApiClient, 'get'>,
      params: ResourceListParams<S> = {},
      signal?: AbortSignal,
    ): Promise<ResourcePage> {
      const page = params.page ?? 1;
      const size = params.size ?? defaultPageSize(shape);
      const query = queryOf(params, page, size);
      if (jsonApi) {
        const document = await api.get<JsonApiDocument<JsonApiResource[]>>(shape.path, { jsonApi, query, signal });
        return {
          items: (document.data ?? []).map(flattenResource),
          count: Number(document.meta?.count ?? 0),
          pages: Number(document.meta?.pages ?? 1),
        };
      }
      const answer = await api.get<{ count: number; results: Record<string, unknown>[] }>(shape.path, {
        query,
        signal,
      });
      return {
        items: answer.results.map((r) => ({ ...r, id: String(r.id) })),
        count: answer.count,
        pages: shape.unpaged ? 1 : Math.max(1, Math.ceil(answer.count / size)),
      };
    },

    /** Every page (JSON:API: fetched in parallel once the first tells how many there are). */
    async listAll(
      api: Pick<ApiClient, 'get' | 'jsonApiFetchAll'>,
      params: Omit<ResourceListParams<S>, 'page' | 'size'> = {},
      signal?: AbortSignal,
    ): Promise<ResourceItem[]> {
      const size = defaultPageSize(shape);
      if (jsonApi) {
        const { page: _page, 'page[number]': _n, 'page[size]': _s, ...query } = queryOf(params, 1, size);
        const all = await api.jsonApiFetchAll(shape.path, { query, signal, pageSize: size });
        return all.data.map(flattenResource);
      }
      const first = await client.list(api, { ...params, page: 1, size }, signal);
      const rest = await Promise.all(
        Array.from({ length: first.pages - 1 }, (_, i) => client.list(api, { ...params, page: i + 2, size }, signal)),
      );
      return [first, ...rest].flatMap((p) => p.items);
    },

    async find(api: Pick<ApiClient, 'get'>, id: string, signal?: AbortSignal): Promise<ResourceWithEtag> {
      let etag: string | null = null;
      const answer = await api.get(one(id), {
        jsonApi,
        signal,
        onResponse: (response) => (etag = response.headers.get('etag')),
      });
      return { item: itemOf(answer), etag };
    },

    async create(api: Pick<ApiClient, 'post'>, write: ResourceWrite): Promise<ResourceWithEtag> {
      let etag: string | null = null;
      const answer = await api.post(shape.path, body(write), {
        jsonApi,
        onResponse: (response) => (etag = response.headers.get('etag')),
      });
      return { item: itemOf(answer), etag };
    },

    /** PATCH; with `etag` (what `find` answered) a change someone else made first is refused with 412. */
    async update(
      api: Pick<ApiClient, 'patch'>,
      id: string,
      write: ResourceWrite,
      etag?: string | null,
    ): Promise<ResourceWithEtag> {
      let next: string | null = null;
      const answer = await api.patch(one(id), body(write, id), {
        jsonApi,
        headers: etag ? { 'If-Match': etag } : {},
        onResponse: (response) => (next = response.headers.get('etag')),
      });
      return { item: itemOf(answer), etag: next };
    },

    async remove(api: Pick<ApiClient, 'delete'>, id: string): Promise<void> {
      await api.delete(one(id), { jsonApi });
    },

    /** `useQuery(client.listQuery(api, params))`: one page. */
    listQuery: (api: Pick<ApiClient, 'get'>, params: ResourceListParams<S> = {}) => ({
      queryKey: client.keys.list(params),
      queryFn: ({ signal }: { signal?: AbortSignal }) => client.list(api, params, signal),
    }),
    /** `useQuery(client.allQuery(api, params))`: every row (lookups, a claim's parties …). */
    allQuery: (
      api: Pick<ApiClient, 'get' | 'jsonApiFetchAll'>,
      params: Omit<ResourceListParams<S>, 'page' | 'size'> = {},
    ) => ({
      queryKey: client.keys.everything(params),
      queryFn: ({ signal }: { signal?: AbortSignal }) => client.listAll(api, params, signal),
    }),
    findQuery: (api: Pick<ApiClient, 'get'>, id: string) => ({
      queryKey: client.keys.one(id),
      queryFn: ({ signal }: { signal?: AbortSignal }) => client.find(api, id, signal),
    }),
  };
  return client;
}

export type ResourceClient<S extends ResourceShape> = ReturnType<typeof resourceClient<S>>;
