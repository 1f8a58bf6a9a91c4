import { Badge, Button, Checkbox, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorAlert, mapServerFormErrors, required, useCan, validateForm } from '@atrium/sdk';
import {
  formatCents,
  PAYMENT_BATCH_RESOURCE,
  sumAmounts,
  toCents,
  useBatchPayments,
  useClearPayment,
  useExportBatch,
  usePaymentBatches,
  usePaymentQueue,
  useRunBatch,
  type PaymentBatch,
  type QueueFilters,
  type QueueItem,
} from '../api/payment-processing-api.js';
import { usePaymentMethods } from '../api/claims-api.js';
import { errorMessageOf } from '../api/jsonapi.js';
import { PaymentLookups } from './payment-processing-lookups.js';

/**
 * claims:admin-setup:payment-processing — claims finance issues payments: the queue of payments
 * awaiting issue (posted, so approved; not voided; in no batch) filtered by method and due date with
 * a running total, a batch run over the selected or all due payments after a confirmation, the
 * batches run so far with their payments and check numbers, and each batch's CSV export; below, the
 * payment methods and pay codes (payment-processing-lookups.tsx).
 */

export default function PaymentProcessingPage() {
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<QueueFilters>({});
  const queue = usePaymentQueue(filters);
  // Every method, expired ones too: payments made with them may still be waiting for issue.
  const methods = usePaymentMethods(false);
  const methodLabel = methods.labelOf;
  const canRun = useCan(PAYMENT_BATCH_RESOURCE, 'create');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [openBatch, setOpenBatch] = useState<PaymentBatch | null>(null);

  const items = useMemo(() => queue.data?.items ?? [], [queue.data]);
  // The selection never holds a payment the filters or a run have taken out of the queue.
  useEffect(() => {
    setSelected((current) => {
      const ids = new Set(items.map((i) => i.id));
      const kept = [...current].filter((id) => ids.has(id));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [items]);
  // The palette's "Run payment batch" opens the confirmation for every due payment.
  useEffect(() => {
    if (params.get('action') === 'run' && queue.data && canRun.allowed) {
      setConfirming(true);
      setParams({}, { replace: true });
    }
  }, [params, setParams, queue.data, canRun.allowed]);

  const chosen = selected.size > 0 ? items.filter((i) => selected.has(i.id)) : items;
  const chosenTotal = sumAmounts(chosen.map((i) => i.amount));
  const allSelected = items.length > 0 && selected.size === items.length;

  return (
    <Stack>
      <Title order={1} size="h2">
        Payment Processing
      </Title>
      <Title order={3}>Payments awaiting issue</Title>
      <Group align="flex-end">
        <Select
          label="Payment method"
          placeholder="All methods"
          clearable
          data={methods.options}
          value={filters.payment_method ?? null}
          onChange={(value) => setFilters({ ...filters, payment_method: value ?? undefined })}
          w={180}
        />
        <TextInput
          label="Due on or before"
          type="date"
          value={filters.due_date_to ?? ''}
          onChange={(e) => setFilters({ ...filters, due_date_to: e.currentTarget.value || undefined })}
          w={180}
        />
        {canRun.allowed ? (
          <Button disabled={items.length === 0} onClick={() => setConfirming(true)}>
            {selected.size > 0 ? `Run batch for ${selected.size} selected` : 'Run batch for all due'}
          </Button>
        ) : null}
      </Group>
      <ErrorAlert error={queue.error} />
      <Text aria-label="Queue total">
        {items.length} {items.length === 1 ? 'payment' : 'payments'} awaiting issue, total{' '}
        <b>{formatCents(toCents(queue.data?.total ?? '0.00'))}</b>
        {selected.size > 0 ? (
          <>
            {' '}
            · selected {selected.size}, <b>{formatCents(chosenTotal)}</b>
          </>
        ) : null}
      </Text>
      <Table aria-label="Payments awaiting issue">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Checkbox
                aria-label="Select all payments"
                checked={allSelected}
                indeterminate={selected.size > 0 && !allSelected}
                onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id)))}
              />
            </Table.Th>
            <Table.Th>Claim</Table.Th>
            <Table.Th>Payee</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Method</Table.Th>
            <Table.Th>Due date</Table.Th>
            <Table.Th>Transaction</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${item.transaction_number}`}
                  checked={selected.has(item.id)}
                  onChange={() => {
                    const next = new Set(selected);
                    if (next.has(item.id)) next.delete(item.id);
                    else next.add(item.id);
                    setSelected(next);
                  }}
                />
              </Table.Td>
              <Table.Td>{item.claim_number}</Table.Td>
              <Table.Td>{item.payee}</Table.Td>
              <Table.Td ta="right">{formatCents(toCents(item.amount))}</Table.Td>
              <Table.Td>{methodLabel(item.payment_method)}</Table.Td>
              <Table.Td>{item.due_date ?? ''}</Table.Td>
              <Table.Td>{item.transaction_number}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {queue.data && items.length === 0 ? <Text c="dimmed">No payments are awaiting issue.</Text> : null}

      <BatchList onOpen={setOpenBatch} />
      <PaymentLookups />

      {confirming ? (
        <RunBatchDialog
          count={chosen.length}
          total={formatCents(chosenTotal)}
          nextCheckNumber={queue.data?.nextCheckNumber ?? ''}
          paymentIds={selected.size > 0 ? [...selected] : null}
          filters={filters}
          onClose={() => setConfirming(false)}
          onDone={(batch) => {
            setConfirming(false);
            setSelected(new Set());
            setOpenBatch(batch);
          }}
        />
      ) : null}
      <BatchDetail batch={openBatch} onClose={() => setOpenBatch(null)} />
    </Stack>
  );
}

function RunBatchDialog({
  count,
  total,
  nextCheckNumber,
  paymentIds,
  filters,
  onClose,
  onDone,
}: {
  count: number;
  total: string;
  nextCheckNumber: string;
  paymentIds: string[] | null;
  filters: QueueFilters;
  onClose(): void;
  onDone(batch: PaymentBatch): void;
}) {
  const run = useRunBatch();
  const [firstCheck, setFirstCheck] = useState(nextCheckNumber);
  const [error, setError] = useState<string | null>(null);
  const fieldErrors = run.error ? mapServerFormErrors(run.error).fields : {};
  return (
    <Modal opened onClose={onClose} title="Run payment batch">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (firstCheck && !/^[1-9]\d{0,11}$/.test(firstCheck)) {
            setError('First check number must be a whole number such as "100001".');
            return;
          }
          setError(null);
          run.mutate(
            { paymentIds, filters, firstCheckNumber: firstCheck || undefined },
            {
              onSuccess: (flat) =>
                onDone({
                  id: flat.id,
                  number: String(flat.number),
                  amount: String(flat.amount),
                  payments_count: Number(flat.payments_count),
                  run_by: String(flat.run_by),
                  run_at: String(flat.run_at),
                }),
            },
          );
        }}
      >
        <Stack>
          <Text>
            Issue {count} {count === 1 ? 'payment' : 'payments'} totalling <b>{total}</b>?
          </Text>
          <TextInput
            label="First check number"
            description="Checks are numbered from here; ACH, wire and card payments get a batch reference."
            value={firstCheck}
            onChange={(e) => setFirstCheck(e.currentTarget.value.trim())}
            error={error ?? fieldErrors.first_check_number}
          />
          {run.error && !fieldErrors.first_check_number ? (
            <ErrorAlert error={new Error(errorMessageOf(run.error))} />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={run.isPending}>
              Run batch
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function BatchList({ onOpen }: { onOpen(batch: PaymentBatch): void }) {
  const batches = usePaymentBatches();
  return (
    <Stack>
      <Title order={3}>Payment batches</Title>
      <ErrorAlert error={batches.error} />
      <Table aria-label="Payment batches">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th ta="right">Payments</Table.Th>
            <Table.Th>Run by</Table.Th>
            <Table.Th>Run date</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(batches.data ?? []).map((batch) => (
            <Table.Tr key={batch.id}>
              <Table.Td>{batch.number}</Table.Td>
              <Table.Td ta="right">{formatCents(toCents(batch.amount))}</Table.Td>
              <Table.Td ta="right">{batch.payments_count}</Table.Td>
              <Table.Td>{batch.run_by}</Table.Td>
              <Table.Td>{batch.run_at.slice(0, 10)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="subtle" onClick={() => onOpen(batch)} aria-label={`View ${batch.number}`}>
                  View
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {batches.data?.length === 0 ? <Text c="dimmed">No batch has been run yet.</Text> : null}
    </Stack>
  );
}

function BatchDetail({ batch, onClose }: { batch: PaymentBatch | null; onClose(): void }) {
  const methodLabel = usePaymentMethods(false).labelOf;
  const payments = useBatchPayments(batch?.id ?? null);
  const exportBatch = useExportBatch();
  const canClear = useCan(PAYMENT_BATCH_RESOURCE, 'update');
  const [clearing, setClearing] = useState<QueueItem | null>(null);
  return (
    <Modal opened={batch !== null} onClose={onClose} title={batch ? `Payment batch ${batch.number}` : ''} size="xl">
      {batch ? (
        <Stack>
          <Group>
            <Badge variant="light">{batch.payments_count} payments</Badge>
            <Text>
              Total <b>{formatCents(toCents(batch.amount))}</b> · run by {batch.run_by} on {batch.run_at.slice(0, 10)}
            </Text>
          </Group>
          <ErrorAlert error={payments.error ?? exportBatch.error} />
          <Table aria-label={`Payments of ${batch.number}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Check number</Table.Th>
                <Table.Th>Claim</Table.Th>
                <Table.Th>Payee</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th>Transaction</Table.Th>
                <Table.Th>Cleared</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(payments.data ?? []).map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{p.check_number}</Table.Td>
                  <Table.Td>{p.claim_number}</Table.Td>
                  <Table.Td>{p.payee}</Table.Td>
                  <Table.Td ta="right">{formatCents(toCents(p.amount))}</Table.Td>
                  <Table.Td>{methodLabel(p.payment_method)}</Table.Td>
                  <Table.Td>{p.transaction_number}</Table.Td>
                  <Table.Td>{p.cleared_date ?? ''}</Table.Td>
                  <Table.Td>
                    {canClear.allowed ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => setClearing(p)}
                        aria-label={`${p.cleared_date ? 'Correct cleared date of' : 'Mark cleared'} ${p.transaction_number}`}
                      >
                        {p.cleared_date ? 'Correct' : 'Mark cleared'}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="flex-end">
            <Button variant="default" loading={exportBatch.isPending} onClick={() => exportBatch.mutate(batch)}>
              Export CSV
            </Button>
          </Group>
          {clearing ? <ClearDialog payment={clearing} onClose={() => setClearing(null)} /> : null}
        </Stack>
      ) : null}
    </Modal>
  );
}

/** Records when a payment cleared; a second time it is a correction and needs a reason (append-only). */
function ClearDialog({ payment, onClose }: { payment: QueueItem; onClose(): void }) {
  const clear = useClearPayment();
  const correcting = payment.cleared_date !== null;
  const [date, setDate] = useState(correcting ? '' : new Date().toISOString().slice(0, 10));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const server = clear.error ? mapServerFormErrors(clear.error).fields : {};
  return (
    <Modal opened onClose={onClose} title={correcting ? 'Correct cleared date' : 'Mark cleared'}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const found = validateForm(
            { cleared_date: date, reason },
            {
              ...(correcting ? { reason: { label: 'Reason', rules: [required()] } } : {}),
              ...(!correcting ? { cleared_date: { label: 'Cleared date', rules: [required()] } } : {}),
            },
          ) as Record<string, string>;
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          clear.mutate(
            { paymentId: payment.id, clearedDate: date || null, reason: reason.trim() || undefined },
            { onSuccess: onClose },
          );
        }}
      >
        <Stack>
          <Text size="sm">
            {payment.transaction_number} · check {payment.check_number} · {formatCents(toCents(payment.amount))}
            {correcting ? ` · cleared ${payment.cleared_date}` : ''}
          </Text>
          <TextInput
            label="Cleared date"
            type="date"
            description={correcting ? 'Leave empty if the payment did not clear after all.' : undefined}
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            error={errors.cleared_date ?? server.cleared_date}
          />
          {correcting ? (
            <TextInput
              label="Reason"
              withAsterisk
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={errors.reason ?? server.reason}
            />
          ) : null}
          {clear.error && Object.keys(server).length === 0 ? (
            <ErrorAlert error={new Error(errorMessageOf(clear.error))} />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={clear.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
