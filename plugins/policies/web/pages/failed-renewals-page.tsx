import {
  Anchor,
  Button,
  Group,
  Modal,
  Pagination,
  Progress,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  DataTable,
  EmptyState,
  ErrorAlert,
  PageHeader,
  QueryState,
  formatDateTime,
  useApiClient,
  useCan,
  useHostServices,
  paginationControlProps,
} from '@atrium/sdk';
import type { Page, Transaction } from '../policies-api.js';
import { policyPageRoute } from '../routes.js';

const PAGE_SIZE = 15;

/** Renewals that failed and were not dismissed: each with its reason, retried or dismissed here. */
export default function FailedRenewalsPage() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const canRenew = useCan('policies:transaction', 'renew').allowed;
  const canDismiss = useCan('policies:transaction', 'dismiss').allowed;
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [dismissing, setDismissing] = useState<Transaction | null>(null);
  const [reason, setReason] = useState('');
  const [expiringBy, setExpiringBy] = useState(() => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
  const [run, setRun] = useState<{ total: number; transaction_ids: number[] } | null>(null);
  const start = useMutation({
    mutationFn: () =>
      api.post<{ total: number; transaction_ids: number[] }>('/policies/renewal-runs/', { expiring_by: expiringBy }),
    onSuccess: (started) => setRun(started),
  });
  const progress = useQuery({
    queryKey: ['policies', 'renewal-run', run?.transaction_ids],
    queryFn: () =>
      api.post<{ total: number; completed: number; failed: number; pending: number }>(
        '/policies/renewal-runs/progress/',
        {
          transaction_ids: run!.transaction_ids,
        },
      ),
    enabled: run !== null && run.total > 0,
    refetchInterval: (query) => (query.state.data && query.state.data.pending === 0 ? false : 1000),
  });
  const done = progress.data ? progress.data.completed + progress.data.failed : 0;
  useEffect(() => {
    if (progress.data && progress.data.pending === 0)
      void queryClient.invalidateQueries({ queryKey: ['policies', 'failed-renewals'] });
  }, [progress.data, queryClient]);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useQuery({
    queryKey: ['policies', 'failed-renewals', search, page],
    queryFn: ({ signal }) =>
      api.get<Page<Transaction>>('/policies/failed-renewals/', {
        query: { page, size: PAGE_SIZE, sort: '-date_created', ...(search ? { search } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const retry = useMutation({
    mutationFn: (t: Transaction) =>
      api.post('/policies/policy-transactions/', {
        policy: t.policy,
        type: 'renewal',
        effective_date: t.effective_date,
      }),
    onSuccess: () => {
      services.showToast({ message: 'The renewal was started again.', kind: 'success' });
      void queryClient.invalidateQueries({ queryKey: ['policies'] });
    },
  });
  const dismiss = useMutation({
    mutationFn: () => api.patch(`/policies/policy-transactions/${dismissing!.id}/`, { reason_dismissed: reason }),
    onSuccess: () => {
      setDismissing(null);
      setReason('');
      void queryClient.invalidateQueries({ queryKey: ['policies'] });
    },
  });
  return (
    <Stack>
      <PageHeader title="Failed renewals" description="Renewals that could not be bound, with the reason." />
      {canRenew ? (
        <Stack gap="xs" maw={520}>
          <Group align="flex-end">
            <TextInput
              type="date"
              label="Renew policies expiring by"
              value={expiringBy}
              onChange={(e) => setExpiringBy(e.currentTarget.value)}
            />
            <Button loading={start.isPending} onClick={() => start.mutate()}>
              Run renewals
            </Button>
          </Group>
          {start.error ? <ErrorAlert error={start.error} /> : null}
          {run ? (
            run.total === 0 ? (
              <Text size="sm">No policy in force expires by then.</Text>
            ) : (
              <Stack gap={4}>
                <Progress value={(done / run.total) * 100} aria-label="Renewal run progress" />
                <Text size="sm">
                  {done} of {run.total} renewals processed
                  {progress.data?.failed ? `, ${progress.data.failed} failed (listed below)` : ''}.
                </Text>
              </Stack>
            )
          ) : null}
        </Stack>
      ) : null}
      <TextInput
        label="Search"
        placeholder="Policy number or insured"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={320}
      />
      {retry.error ? <ErrorAlert error={retry.error} /> : null}
      <QueryState
        query={list}
        isEmpty={(d) => d.results.length === 0}
        empty={<EmptyState title="No failed renewals." />}
      >
        {(data) => (
          <>
            <DataTable label="Failed renewals">
              <thead>
                <tr>
                  <th>Policy</th>
                  <th>Insured</th>
                  <th>Reason</th>
                  <th>Failed</th>
                  <th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.results.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <Anchor component={Link} to={policyPageRoute.link({ policyId: t.policy! })}>
                        {t.policy_number}
                      </Anchor>
                    </td>
                    <td>{t.primary_insured}</td>
                    <td>{t.error}</td>
                    <td>{formatDateTime(t.date_created)}</td>
                    <td>
                      <Group gap="xs" justify="flex-end">
                        {canRenew ? (
                          <Button size="xs" variant="light" loading={retry.isPending} onClick={() => retry.mutate(t)}>
                            Retry
                          </Button>
                        ) : null}
                        {canDismiss ? (
                          <Button size="xs" variant="subtle" color="gray" onClick={() => setDismissing(t)}>
                            Dismiss
                          </Button>
                        ) : null}
                      </Group>
                    </td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            {data.count > PAGE_SIZE ? (
              <Pagination
                getControlProps={paginationControlProps}
                total={Math.ceil(data.count / PAGE_SIZE)}
                value={page}
                onChange={setPage}
              />
            ) : null}
          </>
        )}
      </QueryState>
      <Modal opened={dismissing !== null} onClose={() => setDismissing(null)} title="Dismiss failed renewal">
        <Stack>
          <TextInput label="Reason" required value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          {dismiss.error ? <ErrorAlert error={dismiss.error} /> : null}
          <Group justify="flex-end">
            <Button disabled={!reason.trim()} loading={dismiss.isPending} onClick={() => dismiss.mutate()}>
              Dismiss
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
