import type { ActingPluginChange, ApiClient } from '@atrium/sdk';
import { defineStatusLabels, isApiRequestError } from '@atrium/sdk';
import type { QuoteFlow } from '../shared/flow.js';
import type { RatingChange, RatingDifference } from '../shared/rating-difference.js';

export type { QuoteFlow, RatingChange, RatingDifference };

export interface RiskNode {
  id: number;
  risk_state: {
    type: { name: string };
    field_answers: Record<string, unknown>;
    items: {
      id: number;
      name: string;
      limit: string | null;
      deductible: string | null;
      limits: Record<string, string>;
    }[];
  };
  risk_quotes: RiskNode[];
  meta: { locked: boolean };
}

export interface UnderwritingIssue {
  id: number;
  code: string;
  severity: string;
  blocking: string;
  message: string;
  status: 'open' | 'approved' | 'rejected';
  authority: string;
  resolved_by: string | null;
  reason: string | null;
}

export interface QuoteSummary {
  quote_number: string;
  product_name: string;
  product_label: string;
  /** Two-letter state of the risk, when known. */
  state?: string | null;
  status: string;
  premium: { term: string; pro_rata: string } | null;
  last_rated_at: string | null;
  rating_stale: boolean;
  is_bound: boolean;
  is_binding: boolean;
  meta: { locked: boolean };
  term: { effective_date: string; expiration_date: string };
  named_insureds: { id: string | null; name: string }[];
  owner: string;
  policy: { id: string; policy_number: string } | null;
  updated_at: string;
}

/**
 * A write the quoting permissions may refuse (create, submit, bind): a 403 stays on the page and
 * shows the server's reason ("You may not bind Homeowners quotes in TX.") instead of /forbidden.
 */
const refusable = { preventForbiddenRedirect: true };
async function explained<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isApiRequestError(error) && error.status === 403 && !error.ingressDenied) {
      const body = error.body as { detail?: unknown } | null;
      const detail = typeof body?.detail === 'string' ? body.detail : error.errors[0]?.detail;
      if (detail) throw new Error(detail, { cause: error });
    }
    throw error;
  }
}

export interface Quote extends QuoteSummary {
  /** What the caller's quoting permissions allow on this quote (one quote's answer only). */
  quoting_actions?: { quote: boolean; submit: boolean; bind: boolean };
  root_risk_quote_id: number | null;
  risk_quote: RiskNode | null;
  worksheet: unknown;
  underwriting_issues: UnderwritingIssue[];
  alerts: { id: number; kind: string; message: string }[];
  billing: { schedule_id: string | null; payment_method_id: number | null };
}

export interface QuoteAttachment {
  id: number;
  name: string;
  content_type: string;
  size: number;
  source: string;
  uploaded: boolean;
  created_by: string;
  created_at: string;
}

export interface ElementState {
  name: string;
  readonly: boolean;
  visible: boolean;
  mandatory: boolean;
  isValid: boolean;
  validationMessage: string | null;
  value?: string | boolean | null;
  optionsWhitelist: string[] | null;
  optionsBlacklist: string[] | null;
}

export interface RulesAnswer {
  actions: ElementState[];
  issues: UnderwritingIssue[];
}

export const QUOTE_STATUS = defineStatusLabels({
  'In Progress': { label: 'In Progress', tone: 'info' },
  'In Review': { label: 'In Review', tone: 'warning' },
  Approved: { label: 'Approved', tone: 'success' },
  Declined: { label: 'Declined', tone: 'danger' },
  Abandoned: { label: 'Abandoned', tone: 'neutral' },
});

const q = (n: string) => encodeURIComponent(n);

/** A plugin's call carries its record id; the server checks the plugin and audits the change. */
const pluginMark = (plugin?: ActingPluginChange) => (plugin ? { headers: { 'X-Atrium-Plugin': plugin.pluginId } } : {});

/** One entry of the quote's audit: a risk change a third-party plugin made for a user. */
export interface QuoteAuditEntry {
  id: number;
  action: 'create-risk' | 'update-risk' | 'remove-risk';
  risk_id: number;
  risk_type: string | null;
  username: string;
  plugin: { id: string; name: string } | null;
  patch: object[] | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
}

export const quoteApi = (api: ApiClient) => ({
  products: (on: string) =>
    api.get<{ results: { name: string; label: string; version_label: string; effective_date: string }[] }>(
      '/quote/quotable-products/',
      { query: { effective_before: on } },
    ),
  list: (query: Record<string, string | number>, signal?: AbortSignal) =>
    api.get<{ data: QuoteSummary[]; meta: { count: number } }>('/quote/', { query, signal }),
  search: (text: string, limit: number, signal?: AbortSignal) =>
    api.get<{ results: QuoteSummary[] }>('/quote/quick-search/', { query: { q: text, limit }, signal }),
  create: (body: object) => explained(api.post<Quote>('/quote/', body, refusable)),
  get: (n: string, signal?: AbortSignal) => api.get<Quote>(`/quote/${q(n)}/`, { signal }),
  flow: (n: string) => api.get<QuoteFlow>(`/quote/${q(n)}/flow/`),
  evaluate: (riskId: number) => api.post<RulesAnswer>(`/quote/risks/${riskId}/evaluate/`, {}),
  // `plugin`: the call is a third-party plugin's change, audited with its patch (plugin-changes.tsx).
  saveRisk: (riskId: number, state: object, query: Record<string, string> = {}, plugin?: ActingPluginChange) =>
    api.put<RiskNode & { rules?: RulesAnswer }>(
      `/quote/risks/${riskId}/`,
      { risk_state: state, ...(plugin ? { plugin_patch: plugin.patch } : {}) },
      { query, ...pluginMark(plugin) },
    ),
  addRisk: (quote: string, parent: number, type: string, plugin?: ActingPluginChange) =>
    api.post<RiskNode>('/quote/risks/', { quote, parent_risk_quote: parent, risk_type_name: type }, pluginMark(plugin)),
  removeRisk: (riskId: number, plugin?: ActingPluginChange) =>
    api.delete(`/quote/risks/${riskId}/`, pluginMark(plugin)),
  audit: (n: string) => api.get<{ results: QuoteAuditEntry[] }>(`/quote/${q(n)}/audit/`),
  validateAnswer: (riskId: number, field: string, answer: unknown) =>
    api.post<{ valid: boolean; message: string | null }>(`/quote/risks/${riskId}/fields/${q(field)}/validate-answer/`, {
      answer,
    }),
  rate: (n: string) => api.post<Quote>(`/quote/${q(n)}/rate/`, {}),
  difference: (n: string) => api.get<RatingDifference>(`/quote/${q(n)}/rating/difference/`),
  reviewQueue: (query: Record<string, string | number>, signal?: AbortSignal) =>
    api.get<{ data: (QuoteSummary & { underwriting_issues: UnderwritingIssue[] })[]; meta: { count: number } }>(
      '/quote/review-queue/',
      { query, signal },
    ),
  clearIssue: (n: string, id: number, decision: 'approve' | 'reject', reason: string) =>
    api.post<Quote>(`/quote/${q(n)}/underwriting-issues/${id}/${decision}/`, { reason }),
  submit: (n: string) => explained(api.post<Quote>(`/quote/${q(n)}/submit/`, {}, refusable)),
  triggers: (n: string) =>
    api.get<{ results: { name: string; label: string; reason_required: boolean }[] }>(
      `/quote/${q(n)}/status/triggers/`,
    ),
  runTrigger: (n: string, name: string, reason?: string) =>
    api.post<Quote>(`/quote/${q(n)}/status/triggers/${q(name)}/`, reason ? { reason } : {}),
  dismissAlert: (n: string, id: number) => api.delete(`/quote/${q(n)}/alerts/${id}/`),
  attachments: (n: string) => api.get<{ results: QuoteAttachment[] }>(`/quote/${q(n)}/attachments/`),
  announceAttachment: (n: string, body: { name: string; content_type: string; size: number; source: string }) =>
    api.post<QuoteAttachment & { upload: { url: string; fields: Record<string, string> } }>(
      `/quote/${q(n)}/attachments/`,
      body,
    ),
  removeAttachment: (n: string, id: number) => api.delete(`/quote/${q(n)}/attachments/${id}/`),
  billingConfig: (n: string) =>
    api.get<{ schedules: { id: string; name: string; paymentMethods: string[]; installmentCount: number }[] }>(
      `/quote/${q(n)}/billing/config/`,
    ),
  billing: (n: string) =>
    api.get<{
      billing_schedule_id: string | null;
      payment_method_id: number | null;
      payment_methods: { id: number; type: string; last4: string; expiry: string | null }[];
    }>(`/quote/${q(n)}/billing/`),
  preview: (body: object) =>
    api.post<{
      success: boolean;
      previews: {
        scheduleId: string;
        scheduleName: string;
        total: string;
        installments: { number: number; dueDate: string; total: string }[];
      }[];
    }>('/v2/billing/get_installments_preview', body),
  chooseBilling: (n: string, scheduleId: string, paymentMethodId: number | null) =>
    api.post(
      `/quote/${q(n)}/billing/`,
      {
        data: { type: 'billing', attributes: { billing_schedule_id: scheduleId, payment_method_id: paymentMethodId } },
      },
      { jsonApi: true },
    ),
  addPaymentMethod: (body: object) =>
    api.post<{ payment_method: { id: number; type: string; last4: string } }>('/v2/payments/add_payment_method', body),
  bind: (n: string) => explained(api.post<QuoteSummary>(`/quote/${q(n)}/bind_requested/`, {}, refusable)),
});
