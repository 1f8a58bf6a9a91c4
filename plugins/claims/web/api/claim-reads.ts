import type { ApiClient, JsonApiDocument, JsonApiResource } from '@atrium/sdk';
import { flatten, flattenAll, type Flat } from './jsonapi.js';
import { PATHS } from './paths.js';

/*
 * Reading claims, without the collections' declarations (and zod) that claims-api.ts brings: My
 * work's claim widgets load this alone on All Modules (issue 13, Total Blocking Time).
 * claims-api.ts re-exports all of it.
 */

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
