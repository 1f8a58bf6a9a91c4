import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  useApiClient,
  type ApiClient,
  type JsonApiDocument,
  type JsonApiResource,
  type ResourceItem,
} from '@atrium/sdk';
import { flatten, flattenAll, resourceBody, text, type Flat } from './jsonapi.js';
import { collectionClient, paymentMethods } from './collections.js';
import { PATHS } from './paths.js';

/** Claims, their statuses, exposures, parties and audit log as the screens read them. */
export interface Claim extends Flat {
  number: string;
  status: string;
  fnol_number?: string | null;
  policy_number?: string | null;
  date_of_loss?: string | null;
  loss_description?: string | null;
  primary_adjuster?: string | null;
  total_incurred?: string | null;
  status_change_reason?: string | null;
  current_fnol_step?: string | null;
  product_id?: string;
}

/** A claim with the ETag it was read at, for the `If-Match` of the next write. */
export interface ClaimWithEtag {
  claim: Claim;
  etag: string | null;
}

/** Pending claims come in pages of 20 (spec "Business constants"). */
export const PENDING_PAGE_SIZE = 20;
export const MY_CLAIMS_PAGE_SIZE = 20;

export const claimsKeys = {
  all: ['claims-module'] as const,
  list: (query: Record<string, unknown>) => ['claims-module', 'claims', query] as const,
  claim: (number: string) => ['claims-module', 'claim', number] as const,
  claimParts: (claimId: string) => ['claims-module', 'claim-parts', claimId] as const,
  audit: (claimId: string) => ['claims-module', 'audit', claimId] as const,
};

export type ClaimFilters = Partial<
  Record<
    | 'numbers'
    | 'number'
    | 'status'
    | 'claim_number'
    | 'has_adjuster'
    | 'loss_city'
    | 'loss_state'
    | 'loss_zip'
    | 'primary_adjuster'
    | 'adjuster_or_filer',
    string
  >
>;

export interface ClaimPage {
  claims: Claim[];
  count: number;
  pages: number;
}

export async function fetchClaimPage(
  api: ApiClient,
  filters: ClaimFilters,
  page: number,
  size: number,
  signal?: AbortSignal,
): Promise<ClaimPage> {
  const query: Record<string, string | number> = { 'page[number]': page, 'page[size]': size, sort: '-id' };
  for (const [name, value] of Object.entries(filters)) if (value) query[`filter[${name}]`] = value;
  const document = await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.claims, { jsonApi: true, query, signal });
  return {
    claims: flattenAll(document) as Claim[],
    count: document.meta?.count ?? 0,
    pages: document.meta?.pages ?? 1,
  };
}

export function useClaimPage(filters: ClaimFilters, page: number, size: number) {
  const api = useApiClient();
  return useQuery({
    queryKey: claimsKeys.list({ filters, page, size }),
    queryFn: ({ signal }) => fetchClaimPage(api, filters, page, size, signal),
    placeholderData: keepPreviousData,
  });
}

/** One claim document read with its ETag (the `If-Match` of the next write). */
export async function fetchClaimAt(api: ApiClient, path: string, signal?: AbortSignal): Promise<ClaimWithEtag> {
  let etag: string | null = null;
  const document = await api.get<JsonApiDocument<JsonApiResource>>(path, {
    jsonApi: true,
    signal,
    onResponse: (response) => (etag = response.headers.get('etag')),
  });
  return { claim: flatten(document.data) as Claim, etag };
}

/** `claims/by-number/{n}/`: 404 'Claim {n} not found.' when there is none (or it is not the caller's to see). */
export const fetchClaimByNumber = (api: ApiClient, number: string, signal?: AbortSignal) =>
  fetchClaimAt(api, PATHS.claimByNumber(number), signal);

export function useClaimByNumber(number: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: claimsKeys.claim(number),
    queryFn: ({ signal }) => fetchClaimByNumber(api, number, signal),
    retry: false,
  });
}

/** PATCH with `If-Match`: a stale ETag is refused with 412 (the caller offers a reload). */
export async function updateClaim(
  api: ApiClient,
  id: string,
  etag: string | null,
  attributes: Record<string, unknown>,
  options: { preventForbiddenRedirect?: boolean } = {},
): Promise<ClaimWithEtag> {
  let next: string | null = null;
  const document = await api.patch<JsonApiDocument<JsonApiResource>>(
    PATHS.claim(id),
    resourceBody('claim', attributes, { id }),
    {
      ...options,
      jsonApi: true,
      headers: etag ? { 'If-Match': etag } : {},
      onResponse: (response) => (next = response.headers.get('etag')),
    },
  );
  return { claim: flatten(document.data) as Claim, etag: next };
}

/** A resource client's item as the claims screens read them (with its JSON:API type). */
const flat = (type: string, items: ResourceItem[]): Flat[] => items.map((item) => ({ type, ...item }));

/** Every resource of a claim's collection (`filter[claim]=id`), all pages in parallel. */
export function useClaimCollection(path: string, claimId: string | undefined) {
  const api = useApiClient();
  const client = collectionClient(path);
  return useQuery({
    queryKey: [...claimsKeys.claimParts(claimId ?? ''), path],
    enabled: !!claimId,
    queryFn: async ({ signal }) => ({
      items: flat(client.shape.type, await client.listAll(api, { filters: { claim: claimId! } }, signal)),
    }),
  });
}

/** Any lookup collection, whole (page size 250, pages in parallel). */
export function useLookup(path: string, enabled = true) {
  const api = useApiClient();
  const client = collectionClient(path);
  return useQuery({
    queryKey: ['claims-module', 'lookup', path],
    enabled,
    queryFn: async ({ signal }) => flat(client.shape.type, await client.listAll(api, {}, signal)),
    staleTime: 60_000,
  });
}

/**
 * The payment methods claims finance keeps in Payment Processing, as select options (value: the
 * method's name, which payments store). `activeOnly` for new payments: an expired method stays
 * on the payments that used it but cannot be chosen again.
 */
export function usePaymentMethods(activeOnly: boolean) {
  const api = useApiClient();
  const methods = useQuery({
    ...paymentMethods.allQuery(api, { filters: { active: activeOnly ? true : undefined } }),
    staleTime: 60_000,
  });
  const options = (methods.data ?? []).map((m) => ({ value: m.id, label: text(m.label) || m.id }));
  return {
    ...methods,
    options,
    labelOf: (name: string | null) => options.find((o) => o.value === name)?.label ?? name ?? '',
  };
}

export function useClaimAudit(claimId: string | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: claimsKeys.audit(claimId ?? ''),
    enabled: !!claimId,
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.auditLog, {
        jsonApi: true,
        signal,
        query: { 'filter[claim]': claimId!, sort: '-id', 'page[size]': 20, 'page[number]': 1 },
      });
      return flattenAll(document);
    },
  });
}

/** `POST claims/users/{username}/assign/claims/` for one claim (the assign area runs one per claim). */
export function assignClaim(api: ApiClient, username: string, claimId: string) {
  return api.post(PATHS.assignClaims(username), { claim_ids: [Number(claimId)] });
}

export interface ExposureWithEtag {
  exposure: Flat;
  etag: string | null;
}

/** One exposure with the ETag for its next write's `If-Match`. */
export function useExposure(id: string | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'exposure', id],
    enabled: !!id,
    queryFn: async ({ signal }): Promise<ExposureWithEtag> => {
      let etag: string | null = null;
      const document = await api.get<JsonApiDocument<JsonApiResource>>(PATHS.exposure(id!), {
        jsonApi: true,
        signal,
        onResponse: (response) => (etag = response.headers.get('etag')),
      });
      return { exposure: flatten(document.data), etag };
    },
  });
}

/** PATCH an exposure with `If-Match` (412 when someone else changed it first). */
export function updateExposure(api: ApiClient, id: string, etag: string | null, attributes: Record<string, unknown>) {
  return api.patch(PATHS.exposure(id), resourceBody('exposure', attributes, { id }), {
    jsonApi: true,
    headers: etag ? { 'If-Match': etag } : {},
  });
}
