import { z } from 'zod';

/**
 * The reports (docs/reports.md): their ids, titles, filters (one zod schema per report, used by the
 * page's form and by the API) and columns. Shared by the server and the web half: only zod here.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isRealDay = (day: string) => {
  const parsed = new Date(`${day}T00:00:00Z`);
  return (
    !Number.isNaN(parsed.getTime()) &&
    parsed.toISOString().slice(0, 10) === day &&
    day >= '1900-01-01' &&
    day <= '2999-12-31'
  );
};
export const isoDay = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .regex(DAY, `${label}: enter a date as YYYY-MM-DD.`)
    .refine(isRealDay, `${label}: enter a date as YYYY-MM-DD.`);

const period = z
  .strictObject({ from: isoDay('From'), to: isoDay('To') })
  .refine((p) => p.from <= p.to, { message: 'The period must end on or after its start.', path: ['to'] });

export const CLAIM_STATUSES = ['open', 'closed', 'reopened'] as const;
export const CLAIM_STATUS_LABELS: Record<string, string> = {
  open: 'Open',
  closed: 'Closed',
  reopened: 'Reopened',
  draft: 'Draft',
};

export const REPORT_FILTERS = {
  'claims-register': z
    .strictObject({
      lossFrom: isoDay('Loss from').optional(),
      lossTo: isoDay('Loss to').optional(),
      status: z.enum(CLAIM_STATUSES, { error: 'Choose a claim status.' }).optional(),
    })
    .refine((f) => !f.lossFrom || !f.lossTo || f.lossFrom <= f.lossTo, {
      message: 'The period must end on or after its start.',
      path: ['lossTo'],
    }),
  'loss-run-policy': z.strictObject({
    policyNumber: z.string({ error: 'Choose a policy.' }).trim().min(1, 'Choose a policy.').max(40, 'Choose a policy.'),
  }),
  'loss-run-period': period,
  'reserves-payments': period,
  premium: z.strictObject({
    from: isoDay('From'),
    to: isoDay('To'),
    product: z.enum(['homeowners', 'personal_auto'], { error: 'Choose a product.' }).optional(),
  }),
  'agent-production': period,
  bordereaux: period,
} as const;

export type ReportId = keyof typeof REPORT_FILTERS;
export const REPORT_IDS = Object.keys(REPORT_FILTERS) as ReportId[];
export type ReportFilters<R extends ReportId = ReportId> = z.infer<(typeof REPORT_FILTERS)[R]>;

export type ColumnKind = 'text' | 'money' | 'date' | 'integer' | 'percent';
export interface ReportColumn {
  key: string;
  label: string;
  kind: ColumnKind;
}

export interface ReportDefinition {
  id: ReportId;
  title: string;
  description: string;
  /** The filters the form shows, in order. */
  filters: ('lossFrom' | 'lossTo' | 'status' | 'policyNumber' | 'from' | 'to' | 'product')[];
}

export const REPORTS: ReportDefinition[] = [
  {
    id: 'claims-register',
    title: 'Claims register',
    description: 'Every claim with its status, dates and balances.',
    filters: ['lossFrom', 'lossTo', 'status'],
  },
  {
    id: 'loss-run-policy',
    title: 'Loss run by policy',
    description: "One policy's claims, what they cost, and its premium.",
    filters: ['policyNumber'],
  },
  {
    id: 'loss-run-period',
    title: 'Loss run by period',
    description: 'Claims by month of loss over a period: counts, paid, outstanding and incurred.',
    filters: ['from', 'to'],
  },
  {
    id: 'reserves-payments',
    title: 'Reserves and payments',
    description: 'Reserve changes, payments and recoveries posted in a period, by claim and reserve category.',
    filters: ['from', 'to'],
  },
  {
    id: 'premium',
    title: 'Written and earned premium',
    description: 'Premium written and earned in a period, by policy term.',
    filters: ['from', 'to', 'product'],
  },
  {
    id: 'agent-production',
    title: 'Agent production',
    description: 'Premium written and earned, commission and losses by agent.',
    filters: ['from', 'to'],
  },
  {
    id: 'bordereaux',
    title: 'Bordereaux',
    description: 'Premium and claims bordereau: each policy term with its premium, commission and losses.',
    filters: ['from', 'to'],
  },
];

export const reportTitle = (id: string) => REPORTS.find((r) => r.id === id)?.title ?? 'Report';

/** A chart of the result: bars of `series` per `category` value. */
export interface ReportChart {
  title: string;
  categoryKey: string;
  series: { key: string; label: string }[];
  data: Record<string, string | number>[];
}

export interface ReportResult {
  title: string;
  columns: ReportColumn[];
  rows: Record<string, string | number | null>[];
  /** Totals row (money as decimal text) under the table; keys are column keys. */
  totals: Record<string, string | number | null> | null;
  /** Figures shown above the table (label → value as text). */
  summary: { label: string; value: string; kind: ColumnKind }[];
  chart: ReportChart | null;
}

export type RunStatus = 'NEW' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';

export interface ReportRunJson {
  id: number;
  report: ReportId;
  title: string;
  filters: Record<string, unknown>;
  status: RunStatus;
  /** '0.00'–'100.00'. */
  progress: string;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  result: ReportResult | null;
}

export interface ReportOptionsJson {
  policies: { number: string; label: string }[];
}

export interface PaymentsJson {
  invoices: {
    policy_number: string;
    number: string;
    invoice_date: string;
    due_date: string;
    amount: string;
    status: string;
    description: string;
  }[];
  payments: {
    policy_number: string;
    invoice_number: string | null;
    received_on: string;
    amount: string;
    method: string;
    reference: string;
  }[];
}
