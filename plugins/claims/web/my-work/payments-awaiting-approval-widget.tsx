import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  EmptyState,
  formatDate,
  formatMoney,
  MY_WORK_KEY_STYLE,
  MyWorkAside,
  MyWorkDetail,
  MyWorkList,
  useApiClient,
  type ApiClient,
  type JsonApiDocument,
  type JsonApiResource,
} from '@atrium/sdk';
import { Link } from 'react-router-dom';
import { fetchClaimAt } from '../api/claim-reads.js';
import { flattenAll, text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { claimsAccountingRoute } from '../routes.js';

/** Payments shown in the widget, oldest first (the order the approvals list keeps). */
export const APPROVALS_SHOWN = 5;

interface AwaitingPayment {
  id: string;
  number: string;
  amount: string;
  requestedBy: string;
  requestedAt: string | null;
  claimNumber: string;
}

interface AwaitingPayments {
  payments: AwaitingPayment[];
  count: number;
}

async function fetchAwaitingPayments(api: ApiClient, signal: AbortSignal): Promise<AwaitingPayments> {
  const document = await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.approvals, {
    jsonApi: true,
    signal,
    query: { 'filter[transaction_type]': 'payment', 'page[number]': 1, 'page[size]': APPROVALS_SHOWN },
  });
  const rows = flattenAll(document);
  // The approvals name their claim by id; the link to its accounting tab needs the number.
  const claimIds = [...new Set(rows.map((row) => text(row.claim_id)).filter(Boolean))];
  const claims = await Promise.all(claimIds.map((id) => fetchClaimAt(api, PATHS.claim(id), signal)));
  const numbers = new Map(claims.map(({ claim }) => [claim.id, claim.number]));
  return {
    count: document.meta?.count ?? rows.length,
    payments: rows.map((row) => ({
      id: row.id,
      number: text(row.number),
      amount: text(row.amount),
      requestedBy: text(row.requested_by),
      requestedAt: (row.requested_at as string | null) ?? null,
      claimNumber: numbers.get(text(row.claim_id)) ?? '',
    })),
  };
}

/**
 * My work › Payments awaiting approval: payments held for an approver, for roles that may approve
 * payments (the manifest's access question); each links to its claim's accounting tab, where the
 * approval is decided.
 */
export default function PaymentsAwaitingApprovalWidget() {
  const api = useApiClient();
  const awaiting = useQuery({
    queryKey: ['claims-module', 'my-work', 'payments-awaiting-approval'],
    queryFn: ({ signal }) => fetchAwaitingPayments(api, signal),
  });
  return (
    <MyWorkList
      query={awaiting}
      rows={(data) => data.payments}
      rowKey={(payment) => payment.id}
      empty={<EmptyState title="Nothing to approve" description="Payments waiting for an approver show here." />}
      footer={(data, shown) =>
        data.count > shown.length ? (
          <Text size="sm" c="dimmed">
            {data.count - shown.length} more waiting
          </Text>
        ) : null
      }
    >
      {(payment) => (
        <>
          {payment.claimNumber ? (
            <Anchor
              component={Link}
              to={claimsAccountingRoute.link({ claimNumber: payment.claimNumber })}
              size="sm"
              style={MY_WORK_KEY_STYLE}
            >
              {payment.claimNumber}
            </Anchor>
          ) : null}
          <MyWorkDetail>
            {payment.requestedBy} · {formatDate(payment.requestedAt)}
          </MyWorkDetail>
          <MyWorkAside mono>{formatMoney(payment.amount)}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
