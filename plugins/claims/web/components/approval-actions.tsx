import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient, type ApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { actionErrorMessageOf, resourceBody, text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';

/**
 * Approve and Reject of a pending transaction, shown only to those the server would let decide:
 * `GET approvals/{id}/decision/` asks the very checks approve and reject make (route permission,
 * the requester never decides their own, the access policy on the amount, authority limits at
 * today's balances). When the server still refuses (the balances moved), the refusal shows here and
 * the page stays: the request opts out of the shell's redirect to /forbidden.
 */
export interface ApprovalDecision {
  may_approve: boolean;
  may_reject: boolean;
  approve_refusal: string | null;
  reject_refusal: string | null;
}

export const approvalDecisionPath = (id: string) => `${PATHS.approvals}${id}/decision/`;

export function useApprovalDecision(id: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims', 'approval-decision', id],
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource>>(approvalDecisionPath(id), {
        jsonApi: true,
        signal,
        preventForbiddenRedirect: true,
      });
      return (document.data?.attributes ?? {}) as unknown as ApprovalDecision;
    },
  });
}

export function decide(api: ApiClient, id: string, decision: 'approve' | 'reject', reason: string) {
  return api.post(PATHS.approval(id, decision), resourceBody('transactions', reason ? { reason } : {}, { id }), {
    jsonApi: true,
    preventForbiddenRedirect: true,
  });
}

export function ApprovalActions({ approval, onDone }: { approval: Flat; onDone(): void }) {
  const api = useApiClient();
  const decision = useApprovalDecision(approval.id);
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const may = decision.data;
  if (!may || (!may.may_approve && !may.may_reject)) return null;
  const number = text(approval.number ?? approval.transaction_number);
  const act = async (what: 'approve' | 'reject') => {
    setError(null);
    setBusy(true);
    try {
      await decide(api, approval.id, what, reason.trim());
      onDone();
    } catch (e) {
      setError(actionErrorMessageOf(e));
      void decision.refetch();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        {may.may_approve ? (
          <Button size="xs" loading={busy} aria-label={`Approve ${number}`} onClick={() => act('approve')}>
            Approve
          </Button>
        ) : null}
        {may.may_reject ? (
          <>
            <TextInput
              size="xs"
              placeholder="Reason"
              aria-label={`Reason for ${number}`}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <Button
              size="xs"
              variant="light"
              color="red"
              aria-label={`Reject ${number}`}
              disabled={!reason.trim() || busy}
              onClick={() => act('reject')}
            >
              Reject
            </Button>
          </>
        ) : null}
      </Group>
      {error ? (
        <Alert color="red" role="alert" p="xs">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
