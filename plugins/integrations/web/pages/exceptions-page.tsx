import { Button, Code, Group, Modal, Pagination, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import IconAlertTriangle from '@tabler/icons-react/icons/IconAlertTriangle';
import {
  EmptyState,
  ErrorState,
  LoadingState,
  PageHeader,
  StatusBadge,
  useApiClient,
  useCan,
  useHostServices,
  paginationControlProps,
} from '@atrium/sdk';
import { firstDetail, keys, type ExceptionItem } from '../api.js';
import { exceptionStatusLabels, formatDate, kindLabel, moduleLabel } from '../labels.js';

const PAGE_SIZE = 25;
const STATUSES = [
  { value: 'open', label: 'Open' },
  { value: 'retrying', label: 'Retrying' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'dismissed', label: 'Dismissed' },
  { value: 'all', label: 'All' },
];

/** The one exceptions queue: what failed for good, from any module; Retry or Dismiss with a reason. */
export default function ExceptionsPage() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const canUpdate = useCan('integrations:exception', 'update').allowed;
  const [module, setModule] = useState<string | null>(null);
  const [status, setStatus] = useState('open');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [dismissing, setDismissing] = useState<ExceptionItem | null>(null);
  const list = useQuery({
    queryKey: [...keys.exceptions, module, status, page],
    queryFn: () =>
      api.get<{ count: number; results: ExceptionItem[]; modules: string[] }>('/integrations/exceptions', {
        query: { module: module ?? undefined, status, page, page_size: PAGE_SIZE },
      }),
    refetchInterval: 10_000,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.exceptions });

  const retry = async (item: ExceptionItem) => {
    try {
      await api.post(`/integrations/exceptions/${item.id}/retry`);
      services.showToast({ message: 'Retry started.', kind: 'success' });
    } catch (error) {
      services.showToast({
        message: firstDetail(error, 'An error occurred while retrying. Please try again.'),
        kind: 'error',
      });
    }
    await refresh();
  };

  return (
    <Stack>
      <PageHeader
        title="Exceptions"
        icon={IconAlertTriangle}
        description="Failures that outlived their retries — webhook deliveries and whatever other modules report."
      />
      <Group align="flex-end">
        <Select
          label="Module"
          placeholder="All modules"
          clearable
          data={(list.data?.modules ?? []).map((m) => ({ value: m, label: moduleLabel(m) }))}
          value={module}
          onChange={(value) => {
            setModule(value);
            setPage(1);
          }}
        />
        <Select
          label="Status"
          data={STATUSES}
          value={status}
          allowDeselect={false}
          onChange={(value) => {
            setStatus(value ?? 'open');
            setPage(1);
          }}
        />
      </Group>
      {list.isPending ? (
        <LoadingState label="Loading exceptions" />
      ) : list.isError ? (
        <ErrorState
          error={new Error('An error occurred while fetching exceptions. Please refresh the page and try again.')}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.results.length === 0 ? (
        <EmptyState title="No exceptions" description="Nothing here needs attention." />
      ) : (
        <>
          <Table aria-label="Exceptions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Module</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.results.map((item) => (
                <Fragment key={item.id}>
                  <Table.Tr>
                    <Table.Td>{moduleLabel(item.module)}</Table.Td>
                    <Table.Td>{kindLabel(item.kind)}</Table.Td>
                    <Table.Td>
                      {item.reason}
                      {item.dismiss_reason && (
                        <Text size="xs" c="dimmed">
                          Dismissed: {item.dismiss_reason}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{item.attempts}</Table.Td>
                    <Table.Td>
                      <StatusBadge labels={exceptionStatusLabels} value={item.status} />
                    </Table.Td>
                    <Table.Td>{formatDate(item.date_created)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="subtle" onClick={() => setOpen(open === item.id ? null : item.id)}>
                          {open === item.id ? 'Hide payload' : 'Payload'}
                        </Button>
                        {canUpdate && item.status === 'open' && item.retryable && (
                          <Button size="xs" variant="light" onClick={() => void retry(item)}>
                            Retry
                          </Button>
                        )}
                        {canUpdate && (item.status === 'open' || item.status === 'retrying') && (
                          <Button size="xs" variant="default" onClick={() => setDismissing(item)}>
                            Dismiss
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {open === item.id && (
                    <Table.Tr>
                      <Table.Td colSpan={7}>
                        <Code block>{JSON.stringify(item.payload, null, 2)}</Code>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
          {list.data.count > PAGE_SIZE && (
            <Pagination
              getControlProps={paginationControlProps}
              total={Math.ceil(list.data.count / PAGE_SIZE)}
              value={page}
              onChange={setPage}
            />
          )}
        </>
      )}
      <DismissModal
        item={dismissing}
        onClose={() => setDismissing(null)}
        onDone={async () => {
          setDismissing(null);
          services.showToast({ message: 'Exception dismissed.', kind: 'success' });
          await refresh();
        }}
      />
    </Stack>
  );
}

function DismissModal({
  item,
  onClose,
  onDone,
}: {
  item: ExceptionItem | null;
  onClose(): void;
  onDone(): Promise<void>;
}) {
  const api = useApiClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!item) return;
    setBusy(true);
    setError(null);
    try {
      await api.post(`/integrations/exceptions/${item.id}/dismiss`, { reason });
      setReason('');
      await onDone();
    } catch (e) {
      setError(firstDetail(e, 'An error occurred while dismissing the exception. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={item !== null} onClose={onClose} title="Dismiss exception">
      <Stack>
        <Textarea
          label="Reason"
          required
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        {error && (
          <Text c="red" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} disabled={!reason.trim()} onClick={() => void submit()}>
            Dismiss
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
