import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { claimsKeys } from './claims-api.js';
import { flatten, resourceBody, type Flat } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * The claim's accounting as the Accounting tab reads and writes it (docs/claims-accounting.md):
 * reserves, payments, recoveries, transactions, approvals waiting on an authority limit, and the
 * totals the server derives from the ledger. Amounts stay decimal strings end to end.
 */
export const RESERVE_CATEGORIES = ['indemnity', 'expense', 'legal', 'medical'] as const;
export type ReserveCategory = (typeof RESERVE_CATEGORIES)[number];
/** Money received back: salvage (the damaged property sold) or subrogation (from the party at fault). */
export const RECOVERY_TYPES = ['salvage', 'subrogation'] as const;
export type RecoveryType = (typeof RECOVERY_TYPES)[number];

/** Paths of the ledger not (yet) in paths.ts. */
export const LEDGER_PATHS = {
  payors: '/claims/payors/',
  recoveryVoid: (id: string) => `${PATHS.recoveries}${id}/void/`,
} as const;

export interface Totals {
  reserve_outstanding: string;
  paid: string;
  recovered: string;
  total_incurred: string;
  net_paid: string;
  net_incurred: string;
}

export const TOTAL_LABELS: Record<keyof Totals, string> = {
  reserve_outstanding: 'Outstanding reserve',
  paid: 'Paid',
  recovered: 'Recovered',
  total_incurred: 'Total incurred',
  net_paid: 'Net paid',
  net_incurred: 'Net incurred',
};

export interface ExposureFinancials extends Totals {
  exposure_id: string;
  display_number: string;
  exposure_name: string;
  categories: (Totals & { reserve_category: string })[];
}

/** `GET claims/{id}/financials/`: the claim's totals, and per exposure and reserve category. */
export interface Financials {
  claim: Totals;
  exposures: ExposureFinancials[];
}

const accountingKeys = {
  all: (claimId: string) => [...claimsKeys.claimParts(claimId), 'accounting'] as const,
};

export function useFinancials(claimId: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...accountingKeys.all(claimId), 'financials'],
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource>>(PATHS.financials(claimId), {
        jsonApi: true,
        signal,
      });
      const a = (document.data?.attributes ?? {}) as Record<string, unknown>;
      return {
        claim: a as unknown as Totals,
        exposures: (Array.isArray(a.exposures) ? a.exposures : []) as ExposureFinancials[],
      } satisfies Financials;
    },
  });
}

export function useLedgerCollection(path: string, claimId: string, extra: Record<string, string> = {}) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...accountingKeys.all(claimId), path, extra],
    queryFn: async ({ signal }) =>
      (await api.jsonApiFetchAll(path, { query: { 'filter[claim]': claimId, ...extra }, signal })).data.map(flatten),
  });
}

/**
 * After a posting: every accounting list, the totals, the claim header and the claims lists
 * (total_incurred, from the claim's balance row) refetch.
 */
export function useAccountingChanged(claimId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claimId) }),
      queryClient.invalidateQueries({ queryKey: [...claimsKeys.all, 'claim'] }),
      queryClient.invalidateQueries({ queryKey: [...claimsKeys.all, 'claims'] }),
    ]);
}

export interface ReserveInput {
  exposureId: string;
  category: ReserveCategory;
  /** The new reserve amount for the category (decimal string). */
  amount: string;
  comments: string;
}

export interface PaymentInput {
  exposureId: string;
  category: ReserveCategory;
  /** A payee's id (the payees collection), `party:<id>` for a party of the claim, or '' for none. */
  payeeId: string;
  amount: string;
  method: string;
  final_payment: boolean;
  comments: string;
}

export interface RecoveryInput {
  exposureId: string;
  category: ReserveCategory;
  recoveryType: RecoveryType;
  amount: string;
  /** YYYY-MM-DD, or '' for none. */
  receivedDate: string;
  /** A payor's id (the payors collection), or '' for none. */
  payorId: string;
  /** A party of the claim (who the money came from or concerns), or '' for none. */
  partyId: string;
  payCode: string;
  comments: string;
}

const idempotent = (key: string) => ({ jsonApi: true, headers: { 'Idempotency-Key': key } });

/** A created ledger resource; `transaction_status` pending_approval when it waits on someone's authority. */
export type Posted = Flat & { transaction_status?: string };

export async function addReserve(api: ApiClient, input: ReserveInput, key: string): Promise<Posted> {
  const body = resourceBody(
    'reserves',
    { new_amount: input.amount, reserve_category: input.category, comments: input.comments },
    { relationships: { exposure: { type: 'exposures', id: input.exposureId } } },
  );
  const document = await api.post<JsonApiDocument<JsonApiResource>>(PATHS.reserves, body, idempotent(key));
  return flatten(document.data);
}

/** `POST payees/` with party_id: the payee of a claim's party (found or made). */
export async function payeeOfParty(api: ApiClient, partyId: string): Promise<string> {
  const document = await api.post<JsonApiDocument<JsonApiResource>>(
    PATHS.payees,
    resourceBody('payees', { party_id: Number(partyId) }),
    { jsonApi: true },
  );
  return document.data.id;
}

/** A payee option's value: a payee's id, or `party:<id>` for a party of the claim not yet a payee. */
export const PARTY_PAYEE = 'party:';

export async function addPayment(api: ApiClient, input: PaymentInput, key: string): Promise<Posted> {
  if (input.payeeId.startsWith(PARTY_PAYEE)) {
    input = { ...input, payeeId: await payeeOfParty(api, input.payeeId.slice(PARTY_PAYEE.length)) };
  }
  const body = resourceBody(
    'payments',
    {
      amount: input.amount,
      reserve_category: input.category,
      payment_method: input.method,
      final_payment: input.final_payment,
      comments: input.comments,
    },
    {
      relationships: {
        exposure: { type: 'exposures', id: input.exposureId },
        payees: input.payeeId ? [{ type: 'payees', id: input.payeeId }] : [],
      },
    },
  );
  const document = await api.post<JsonApiDocument<JsonApiResource>>(PATHS.payments, body, idempotent(key));
  return flatten(document.data);
}

export async function addRecovery(api: ApiClient, input: RecoveryInput, key: string): Promise<Posted> {
  const attributes: Record<string, unknown> = {
    amount: input.amount,
    reserve_category: input.category,
    recovery_type: input.recoveryType,
    comments: input.comments,
  };
  if (input.receivedDate) attributes.received_date = input.receivedDate;
  if (input.payCode.trim()) attributes.pay_code = input.payCode.trim();
  const body = resourceBody('recoveries', attributes, {
    relationships: {
      exposure: { type: 'exposures', id: input.exposureId },
      ...(input.payorId ? { payor: { type: 'payors', id: input.payorId } } : {}),
      ...(input.partyId ? { party: { type: 'parties', id: input.partyId } } : {}),
    },
  });
  const document = await api.post<JsonApiDocument<JsonApiResource>>(PATHS.recoveries, body, idempotent(key));
  return flatten(document.data);
}

export function voidPayment(api: ApiClient, paymentId: string, reason: string, key: string) {
  return api.post(
    PATHS.paymentVoid(paymentId),
    resourceBody('payments', { void_reason: reason }, { id: paymentId }),
    idempotent(key),
  );
}

/** A void of a recovery: a reversing recovery_void; the recovery itself stays as it was. */
export function voidRecovery(api: ApiClient, recoveryId: string, reason: string, key: string) {
  return api.post(
    LEDGER_PATHS.recoveryVoid(recoveryId),
    resourceBody('recoveries', { void_reason: reason }, { id: recoveryId }),
    idempotent(key),
  );
}

export function decideApproval(api: ApiClient, approvalId: string, decision: 'approve' | 'reject', comments: string) {
  return api.post(
    PATHS.approval(approvalId, decision),
    resourceBody('transactions', comments ? { reason: comments } : {}, { id: approvalId }),
    {
      jsonApi: true,
    },
  );
}

/** `12345.5` → `12,345.50`; the value stays a string (no float arithmetic on money). */
export function formatAmount(value: unknown): string {
  const raw = value === null || value === undefined || value === '' ? '0' : String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw);
  if (!match) return raw;
  const [, sign, whole, fraction = ''] = match;
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}
