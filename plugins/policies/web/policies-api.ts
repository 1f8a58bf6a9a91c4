import type { ApiClient } from '@atrium/sdk';
import { defineStatusLabels } from '@atrium/sdk';

export interface PolicyListItem {
  id: number;
  policy_number: string;
  product: string;
  product_name: string;
  status: string;
  cancellation_pending: boolean;
  primary_insured: string;
  effective_date: string;
  expiration_date: string;
  date_added: string;
}

export interface Page<T> {
  count: number;
  next: number | null;
  previous: number | null;
  results: T[];
}

export interface PolicyDetail {
  id: number;
  policy_number: string;
  product: string;
  product_name: string;
  policy_type_name: string;
  state: string | null;
  status: string;
  cancellation_pending: boolean;
  cancellation_pending_date: string | null;
  cancellation_pending_reason: string | null;
  quote_number: string | null;
  named_insured: { id: string | null; name: string };
  agent_contact_id: string | null;
  agency_contact_id: string | null;
  short_rate:
    | { kind: 'factor'; factor: string }
    | { kind: 'table'; table: { maxDays: number; retainedPercent: string }[] }
    | null;
  terms: { id: number; number: number; effective_date: string; expiration_date: string; premium: string }[];
  latest_revision_id: number | null;
  annual_premium: string | null;
  premium: { as_of: string; written: string; earned: string; unearned: string; term_days: number } | null;
  in_progress_oos_transaction: number | null;
  /** An endorsement without a premium is re-rated by the rating engine. */
  rerateable: boolean;
}

export interface Revision {
  id: number;
  number: number;
  revision_date: string;
  revision_state: string;
  policy_status: string;
  description: string;
  annual_premium: string;
  written_premium: string;
  written_premium_delta: string;
  full_policy_number: string;
  policy_term: { id: number; number: number; effective_date: string; expiration_date: string } | null;
  date_added: string;
  created_by: string;
}

export interface Transaction {
  id: number;
  type: string;
  description: string;
  effective_date: string;
  status: string;
  error: string | null;
  reason_dismissed: string | null;
  auto_bind: boolean;
  username: string;
  date_created: string;
  revision: number | null;
  result: Record<string, unknown> | null;
  policy_number?: string;
  primary_insured?: string;
  policy?: number;
  oos_status: string | null;
}

export interface OosConflict {
  revisionNumber: number;
  revisionDate: string;
  field: string;
  laterValue: unknown;
  outOfSequenceValue: unknown;
}

export interface Billing {
  schedule_id: string | null;
  installments: {
    id: number;
    number: number;
    due_date: string;
    amount: string;
    fee: string;
    total: string;
    status: string;
  }[];
  invoices: {
    id: number;
    number: string;
    invoice_date: string;
    due_date: string;
    amount: string;
    status: string;
    description: string;
  }[];
  payments: { id: number; received_on: string; amount: string; method: string; reference: string }[];
  total_billed: string;
  total_paid: string;
  balance: string;
}

export interface FormattedRisk {
  tabs: { tab: string; rows: { label: string; value: string }[] }[];
  coverages: { name: string; limit: string | null; deductible: string | null; premium: string | null }[];
}

export interface Comparison {
  annual_premium_change: string;
  changes: { field: string; from: string | null; to: string | null }[];
  coverages: { name: string; from: string | null; to: string | null; change: string }[];
  rated_premium_from: string | null;
  rated_premium_to: string | null;
  rated_premium_change: string;
  not_rated_change: string;
  calculations: {
    risk: string;
    calculation: string;
    item: string | null;
    from: string | null;
    to: string | null;
    change: string | null;
    factors: { kind: string; name: string; from: string | null; to: string | null; change: string | null }[];
  }[];
}

export const POLICY_STATUS_LABELS = defineStatusLabels({
  'In Force': { label: 'In force', tone: 'success' },
  Canceled: { label: 'Canceled', tone: 'danger' },
  Expired: { label: 'Expired', tone: 'neutral' },
});

export const TRANSACTION_STATUS_LABELS = defineStatusLabels({
  initiated: { label: 'Initiated', tone: 'info' },
  in_progress: { label: 'In progress', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
});

export const TRANSACTION_TYPE_LABELS: Record<string, string> = {
  new_business: 'New business',
  endorsement: 'Endorsement',
  cancellation: 'Cancellation',
  reinstatement: 'Reinstatement',
  renewal: 'Renewal',
};

export const INSTALLMENT_STATUS_LABELS = defineStatusLabels({
  open: { label: 'Open', tone: 'info' },
  invoiced: { label: 'Invoiced', tone: 'info' },
  paid: { label: 'Paid', tone: 'success' },
  canceled: { label: 'Canceled', tone: 'neutral' },
  void: { label: 'Void', tone: 'neutral' },
});

export const METHOD_LABELS: Record<string, string> = { pro_rata: 'Pro rata', short_rate: 'Short rate', flat: 'Flat' };

export const coverageLabel = (name: string) => name.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** Search types of the policy search (spec: Number and Primary Insured). */
export type SearchType = 'number' | 'primary_insured';

export function searchPolicies(
  api: ApiClient,
  params: { search?: string; searchType?: SearchType; page?: number; pageSize?: number },
  signal?: AbortSignal,
) {
  return api.get<Page<PolicyListItem>>('/policies/policies/', {
    query: {
      ...(params.search ? { search: params.search } : {}),
      ...(params.search && params.searchType ? { search_type: params.searchType } : {}),
      page: params.page ?? 1,
      page_size: params.pageSize ?? 10,
      ordering: '-date_added',
    },
    signal,
  });
}
