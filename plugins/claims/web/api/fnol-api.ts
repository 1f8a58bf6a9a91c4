import type { ApiClient, JsonApiDocument, JsonApiResource } from '@atrium/sdk';
import {
  FNOL_STEPS,
  emptyDraft,
  type FnolDraft,
  type FnolStep,
  type LoadedFnol,
  type SavedDraft,
} from '../machines/fnol-types.js';
import { fetchClaimAt } from './claims-api.js';
import { flatten, resourceBody, text } from './jsonapi.js';
import { PATHS } from './paths.js';
import { toCoverages } from './policies-api.js';

/**
 * The FNOL wizard's server side: a draft is a claim with status draft, created on the first NEXT
 * and patched (with If-Match) on every later one; submitting moves it draft → open. Loading by
 * number asks the server, which looks for a draft first and then any claim with that number.
 */
export function draftAttributes(draft: FnolDraft, step: FnolStep): Record<string, unknown> {
  const revision = draft.policy?.revisions.find((r) => r.id === draft.revisionId);
  // A policies-module policy goes by policy_ref (the server takes its revision in force and coverages).
  const real = draft.policy?.source === 'policies' ? draft.policy : null;
  return {
    current_fnol_step: step,
    ...(real
      ? {
          policy_ref: real.id,
          ...(real.policy_date ? { policy_date: real.policy_date } : {}),
          policy_id: null,
          policy_revision_id: null,
        }
      : {
          policy_ref: null,
          policy_id: draft.policy ? Number(draft.policy.id) : null,
          policy_revision_id: draft.revisionId ? Number(draft.revisionId) : null,
        }),
    policy_number: draft.policy?.policy_number ?? null,
    policy_type: revision?.policy_type ?? draft.policy?.policy_type ?? null,
    reported_by: draft.reportedBy,
    reported_method: draft.reportedBy.reported_method || null,
    date_of_loss: draft.loss.date_of_loss || null,
    loss_description: draft.loss.loss_description,
    loss_location: {
      line1: draft.loss.line1,
      city: draft.loss.city,
      state: draft.loss.state,
      zip: draft.loss.zip,
    },
    perils: draft.loss.peril ? [draft.loss.peril] : [],
    loss_category: draft.loss.loss_category || null,
    claimants: draft.claimants,
  };
}

export async function saveDraft(api: ApiClient, draft: FnolDraft, step: FnolStep): Promise<SavedDraft> {
  let etag: string | null = null;
  const onResponse = (response: Response) => (etag = response.headers.get('etag'));
  const attributes = draftAttributes(draft, step);
  const document = draft.claimId
    ? await api.patch<JsonApiDocument<JsonApiResource>>(
        PATHS.claim(draft.claimId),
        resourceBody('claim', attributes, { id: draft.claimId }),
        { jsonApi: true, headers: draft.etag ? { 'If-Match': draft.etag } : {}, onResponse },
      )
    : await api.post<JsonApiDocument<JsonApiResource>>(
        PATHS.claims,
        resourceBody('claim', { ...attributes, status: 'draft' }),
        { jsonApi: true, onResponse },
      );
  const claim = flatten(document.data);
  return {
    claimId: claim.id,
    fnolNumber: text(claim.fnol_number || claim.number),
    productId: claim.product_id ? text(claim.product_id) : null,
    etag,
  };
}

export async function submitFnol(api: ApiClient, draft: FnolDraft): Promise<{ claimNumber: string }> {
  if (!draft.claimId) throw new Error('Save the FNOL before submitting it.');
  const document = await api.post<JsonApiDocument<JsonApiResource>>(
    PATHS.submitFnol(draft.claimId),
    resourceBody('claim', {}, { id: draft.claimId }),
    { jsonApi: true, headers: draft.etag ? { 'If-Match': draft.etag } : {} },
  );
  return { claimNumber: text(flatten(document.data).number) };
}

const isStep = (value: unknown): value is FnolStep => FNOL_STEPS.includes(value as FnolStep);

export async function loadFnol(api: ApiClient, fnolNumber: string): Promise<LoadedFnol> {
  // A draft with that number first, then any claim; 404 says 'FNOL {n} not found.' (the machine shows it).
  const { claim, etag } = await fetchClaimAt(api, PATHS.fnolByNumber(fnolNumber));
  const draft = emptyDraft();
  const reported = (claim.reported_by ?? {}) as Partial<FnolDraft['reportedBy']>;
  const location = (claim.loss_location ?? {}) as Record<string, unknown>;
  draft.claimId = claim.id;
  draft.fnolNumber = text(claim.fnol_number || claim.number);
  draft.etag = etag;
  draft.productId = claim.product_id ? text(claim.product_id) : null;
  draft.revisionId = claim.policy_revision_id ? text(claim.policy_revision_id) : null;
  if (claim.policy_source === 'policies' && claim.policy_ref) {
    draft.revisionId = text(claim.policy_revision_ref);
    draft.policy = {
      id: text(claim.policy_ref),
      source: 'policies',
      policy_number: text(claim.policy_number),
      primary_insured: '',
      policy_type: text(claim.policy_type) || null,
      status: null,
      revisions: [
        {
          id: draft.revisionId,
          number: text(claim.policy_revision_number),
          effective_date: null,
          expiration_date: null,
          policy_type: null,
          coverages: toCoverages(claim.policy_coverages),
        },
      ],
    };
  } else if (claim.policy_number)
    draft.policy = {
      id: text(claim.policy_id),
      source: 'mock',
      policy_number: text(claim.policy_number),
      primary_insured: '',
      policy_type: text(claim.policy_type) || null,
      status: null,
      revisions: draft.revisionId
        ? [
            {
              id: draft.revisionId,
              number: '',
              effective_date: null,
              expiration_date: null,
              policy_type: null,
              coverages: [],
            },
          ]
        : [],
    };
  draft.reportedBy = { ...draft.reportedBy, ...reported };
  draft.loss = {
    date_of_loss: text(claim.date_of_loss).slice(0, 10),
    loss_description: text(claim.loss_description),
    line1: text(location.line1),
    city: text(location.city),
    state: text(location.state),
    zip: text(location.zip),
    peril: text((claim.perils as unknown[] | undefined)?.[0]),
    loss_category: text(claim.loss_category),
  };
  draft.claimants = Array.isArray(claim.claimants) ? (claim.claimants as FnolDraft['claimants']) : [];
  return {
    draft,
    step: isStep(claim.current_fnol_step) ? claim.current_fnol_step : 'policy-search',
    status: claim.status,
    claimNumber: claim.number,
  };
}
