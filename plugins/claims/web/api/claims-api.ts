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
import {
  claimsKeys,
  fetchClaimPage,
  fetchClaimByNumber,
  type ClaimFilters,
  type Claim,
  type ClaimWithEtag,
} from './claim-reads.js';

export * from './claim-reads.js';

export function useClaimPage(filters: ClaimFilters, page: number, size: number) {
  const api = useApiClient();
  return useQuery({
    queryKey: claimsKeys.list({ filters, page, size }),
    queryFn: ({ signal }) => fetchClaimPage(api, filters, page, size, signal),
    placeholderData: keepPreviousData,
  });
}

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
