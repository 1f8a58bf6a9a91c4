import { useQuery } from '@tanstack/react-query';
import { formatMoney, useApiClient, type ApiClient, type JsonApiResource } from '@atrium/sdk';
import type { PolicyCoverage, PolicyRevisionSummary, PolicySearchBy, PolicySummary } from '../machines/fnol-types.js';
import { flatten, includedOf, text, type Flat } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * The claims module's policies integration (mock policies until the policies module provides
 * them): search by policy number or primary insured name, pages of 10, newest first (spec
 * "Business constants": policy search 10, ordering -date_added).
 */
export const POLICY_SEARCH_PAGE_SIZE = 10;

interface SearchAnswer {
  data?: JsonApiResource[];
  included?: JsonApiResource[];
  results?: Record<string, unknown>[];
}

export function toCoverages(raw: unknown): PolicyCoverage[] {
  return (Array.isArray(raw) ? (raw as Record<string, unknown>[]) : []).map((c) => ({
    coverage_type: text(c.coverage_type),
    label: text(c.label || c.coverage_type),
    limit: text(c.limit),
    deductible: text(c.deductible),
    risk: text(c.risk),
  }));
}

function toRevision(raw: Flat | Record<string, unknown>): PolicyRevisionSummary {
  const term = (raw.policy_term ?? {}) as Record<string, unknown>;
  return {
    coverages: toCoverages(raw.coverages),
    id: text(raw.id),
    number: text(raw.number),
    effective_date: text(raw.effective_date ?? term.effective_date) || null,
    expiration_date: text(raw.expiration_date ?? term.expiration_date) || null,
    policy_type: text(raw.policy_type_name ?? raw.policy_type) || null,
  };
}

export function toPolicySummary(raw: Flat | Record<string, unknown>, answer: SearchAnswer = {}): PolicySummary {
  const revisions = Array.isArray(raw.revisions)
    ? (raw.revisions as Record<string, unknown>[]).map(toRevision)
    : ((raw.revisions_ids as string[] | undefined) ?? [])
        .map((id) => includedOf(answer, 'policy-revision', id))
        .flatMap((r) => (r ? [toRevision(r)] : []));
  return {
    id: text(raw.id),
    source: raw.source === 'policies' ? 'policies' : 'mock',
    policy_number: text(raw.policy_number ?? raw.number),
    primary_insured: text(raw.primary_insured ?? raw.name),
    policy_type: text(raw.policy_type_name ?? raw.policy_type) || null,
    status: text(raw.policy_status_name ?? raw.status) || null,
    revisions,
  };
}

export async function searchPolicies(
  api: ApiClient,
  query: string,
  searchBy: PolicySearchBy,
  signal?: AbortSignal,
): Promise<PolicySummary[]> {
  const answer = await api.get<SearchAnswer>(PATHS.policySearch, {
    signal,
    query: { [searchBy]: query, page: 1, page_size: POLICY_SEARCH_PAGE_SIZE, orderBy: '-date_added' },
  });
  if (Array.isArray(answer?.data)) return answer.data.map((r) => toPolicySummary(flatten(r), answer));
  return (answer?.results ?? []).map((r) => toPolicySummary(r));
}

/**
 * `GET integrations/policies/in-force/`: a policies-module policy's revision in force on the loss
 * date, with its coverages (a 400 saying the policy was not in force that day otherwise).
 */
export async function fetchInForce(
  api: ApiClient,
  policyRef: string,
  date: string,
  signal?: AbortSignal,
): Promise<PolicyRevisionSummary> {
  const answer = await api.get<{ data: JsonApiResource }>(PATHS.policyInForce, {
    signal,
    query: { policy_ref: policyRef, date },
  });
  const raw = flatten(answer.data);
  return { ...toRevision(raw), number: text(raw.revision_number) };
}

/** `GET integrations/policies/revisions/{id}/`: one revision, with its coverages. */
export async function fetchRevision(api: ApiClient, id: string, signal?: AbortSignal): Promise<PolicyRevisionSummary> {
  const answer = await api.get<{ data: JsonApiResource }>(PATHS.revision(id), { signal });
  return toRevision(flatten(answer.data));
}

/** One revision with its coverages (FNOL's Claimants step, the exposure dialog); none when no id. */
export function useRevision(revisionId: string | null | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'policy-revision', revisionId ?? null],
    enabled: !!revisionId,
    queryFn: ({ signal }) => fetchRevision(api, revisionId!, signal),
    staleTime: 60_000,
  });
}

/** A coverage as an option: "Dwelling · limit 300,000.00 · deductible 1,000.00 · 100 Main St". */
export function coverageLabel(c: PolicyCoverage): string {
  return [
    c.label || c.coverage_type,
    c.limit ? `limit ${formatMoney(c.limit)}` : '',
    c.deductible ? `deductible ${formatMoney(c.deductible)}` : '',
    c.risk,
  ]
    .filter(Boolean)
    .join(' · ');
}
