import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { flatten, resourceBody, text, type Flat } from './jsonapi.js';

/**
 * Payment processing as the admin setup module reads and writes it (docs/claims-accounting.md,
 * "Payment processing"): the queue of payments awaiting issue, batch runs, the batches and their
 * payments, and the CSV export. Amounts stay decimal strings; sums are integer cents (bigint).
 */
const BASE = '/claims/payment-batches';
export const PAYMENT_PROCESSING_PATHS = {
  queue: `${BASE}/queue/`,
  batches: `${BASE}/`,
  batchPayments: (id: string) => `${BASE}/${id}/payments/`,
  batchExport: (id: string) => `${BASE}/${id}/export/`,
  clearPayment: (id: string) => `/claims/payments/${id}/clear/`,
} as const;

export const PAYMENT_BATCH_RESOURCE = 'claims:payment-batch';

export interface QueueFilters {
  payment_method?: string;
  due_date_to?: string;
}

export interface QueueItem {
  id: string;
  transaction_number: string;
  claim_number: string;
  payee: string;
  amount: string;
  payment_method: string | null;
  due_date: string | null;
  check_number: string | null;
  batch_number: string | null;
  cleared_date: string | null;
}

export interface PaymentBatch {
  id: string;
  number: string;
  amount: string;
  payments_count: number;
  run_by: string;
  run_at: string;
}

const keys = {
  all: ['claims-module', 'payment-processing'] as const,
  queue: (filters: QueueFilters) => [...keys.all, 'queue', filters] as const,
  batches: () => [...keys.all, 'batches'] as const,
  batchPayments: (id: string) => [...keys.all, 'batch', id] as const,
};

const toItem = (flat: Flat): QueueItem => ({
  id: flat.id,
  transaction_number: text(flat.transaction_number),
  claim_number: text(flat.claim_number),
  payee: text(flat.payee),
  amount: text(flat.amount),
  payment_method: (flat.payment_method as string | null) ?? null,
  due_date: (flat.due_date as string | null) ?? null,
  check_number: (flat.check_number as string | null) ?? null,
  batch_number: (flat.batch_number as string | null) ?? null,
  cleared_date: (flat.cleared_date as string | null) ?? null,
});

/** "1234.5" → 123450n; anything else is 0n (the server only answers decimals with two places). */
export function toCents(amount: string): bigint {
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return 0n;
  const cents = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** 123450n → "1,234.50" for display (grouped thousands, two places). */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${whole}.${(abs % 100n).toString().padStart(2, '0')}`;
}

export const sumAmounts = (amounts: readonly string[]): bigint => amounts.reduce((sum, a) => sum + toCents(a), 0n);

/** The queue (every page), with the server's total and next check number. */
export function usePaymentQueue(filters: QueueFilters) {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.queue(filters),
    queryFn: async ({ signal }) => {
      const query: Record<string, string> = {};
      if (filters.payment_method) query['filter[payment_method]'] = filters.payment_method;
      if (filters.due_date_to) query['filter[due_date_to]'] = filters.due_date_to;
      // Page 1 carries meta (total, next check number); later pages only add rows.
      const first = await api.get<JsonApiDocument<JsonApiResource[]>>(PAYMENT_PROCESSING_PATHS.queue, {
        jsonApi: true,
        signal,
        query: { ...query, 'page[size]': '1000' },
      });
      const pages = Number(first.meta?.pages ?? 1);
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
          api.get<JsonApiDocument<JsonApiResource[]>>(PAYMENT_PROCESSING_PATHS.queue, {
            jsonApi: true,
            signal,
            query: { ...query, 'page[size]': '1000', 'page[number]': String(i + 2) },
          }),
        ),
      );
      return {
        items: [first, ...rest].flatMap((d) => d.data.map(flatten).map(toItem)),
        total: text(first.meta?.total) || '0.00',
        nextCheckNumber: text(first.meta?.next_check_number),
      };
    },
  });
}

export function usePaymentBatches() {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.batches(),
    queryFn: async ({ signal }) =>
      (await api.jsonApiFetchAll(PAYMENT_PROCESSING_PATHS.batches, { signal, query: { sort: '-id' } })).data
        .map(flatten)
        .map((f): PaymentBatch => ({
          id: f.id,
          number: text(f.number),
          amount: text(f.amount),
          payments_count: Number(f.payments_count ?? 0),
          run_by: text(f.run_by),
          run_at: text(f.run_at),
        })),
  });
}

export function useBatchPayments(batchId: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.batchPayments(batchId ?? ''),
    enabled: batchId !== null,
    queryFn: async ({ signal }) =>
      (
        await api.get<JsonApiDocument<JsonApiResource[]>>(PAYMENT_PROCESSING_PATHS.batchPayments(batchId!), {
          jsonApi: true,
          signal,
        })
      ).data
        .map(flatten)
        .map(toItem),
  });
}

export interface RunBatchInput {
  /** The payments chosen; null: every payment awaiting issue within the filters. */
  paymentIds: string[] | null;
  filters: QueueFilters;
  firstCheckNumber?: string;
}

export function useRunBatch() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RunBatchInput) => {
      const attributes: Record<string, unknown> = {};
      // With a selection the filters already chose the rows; without one they say which payments to run.
      if (!input.paymentIds) {
        if (input.filters.payment_method) attributes.payment_method = input.filters.payment_method;
        if (input.filters.due_date_to) attributes.due_date_to = input.filters.due_date_to;
      }
      if (input.firstCheckNumber) attributes.first_check_number = input.firstCheckNumber;
      const document = await api.post<JsonApiDocument<JsonApiResource>>(
        PAYMENT_PROCESSING_PATHS.batches,
        resourceBody('payment-batches', attributes, {
          relationships: input.paymentIds
            ? { payments: input.paymentIds.map((id) => ({ type: 'payments', id })) }
            : undefined,
        }),
        { jsonApi: true },
      );
      return flatten(document.data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Downloads the batch's CSV (the API client adds the token, so a plain link would not do). */
export function useExportBatch() {
  const api = useApiClient();
  return useMutation({
    mutationFn: async (batch: { id: string; number: string }) => {
      const csv = await api.get<string>(PAYMENT_PROCESSING_PATHS.batchExport(batch.id), {
        headers: { Accept: 'text/csv' },
      });
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `payment-batch-${batch.number}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      return csv;
    },
  });
}

/** Records (or, with a reason, corrects) when an issued payment cleared; null: not cleared after all. */
export function useClearPayment() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { paymentId: string; clearedDate: string | null; reason?: string }) =>
      api.post(
        PAYMENT_PROCESSING_PATHS.clearPayment(input.paymentId),
        resourceBody('payments', {
          cleared_date: input.clearedDate,
          ...(input.reason ? { reason: input.reason } : {}),
        }),
        { jsonApi: true },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
