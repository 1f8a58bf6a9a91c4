import { Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import IconCash from '@tabler/icons-react/icons/IconCash';
import IconCoin from '@tabler/icons-react/icons/IconCoin';
import IconReceiptRefund from '@tabler/icons-react/icons/IconReceiptRefund';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  DataTable,
  ErrorAlert,
  formatDate,
  formatMoney,
  LoadingState,
  Stat,
  StatGrid,
  StatusBadge,
  useApiClient,
  useCan,
  useHostServices,
} from '@atrium/sdk';
import {
  TOTAL_LABELS,
  useAccountingChanged,
  useFinancials,
  LEDGER_PATHS,
  useLedgerCollection,
  voidPayment,
  voidRecovery,
  type Totals,
} from '../api/accounting-api.js';
import { useClaimCollection, useLookup, type Claim } from '../api/claims-api.js';
import { errorMessageOf, newIdempotencyKey, text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { exposureOptions, PaymentForm, ReserveForm } from '../components/money-forms.js';
import { ApprovalActions } from '../components/approval-actions.js';
import { RecoveryForm } from '../components/recovery-form.js';
import {
  paymentMethodLabels,
  recoveryTypeLabels,
  reserveCategoryLabels,
  transactionStatusLabels,
  transactionTypeLabels,
} from '../claims-labels.js';
import { useExposures } from './exposures-tab.js';

const FORMS = ['reserve', 'payment', 'recovery'] as const;
type FormKind = (typeof FORMS)[number];

const TOTAL_KEYS = Object.keys(TOTAL_LABELS) as (keyof Totals)[];

function TotalsCards({ totals }: { totals: Totals }) {
  return (
    <StatGrid label="Claim totals">
      {TOTAL_KEYS.map((key) => (
        <Stat
          key={key}
          label={TOTAL_LABELS[key]}
          value={formatAmount(totals[key])}
          valueProps={{ 'data-testid': `total-${key}` }}
        />
      ))}
    </StatGrid>
  );
}

/** Void a posted payment or recovery with a reason: the server posts a reversing transaction. */
function VoidButton({ kind, row, onDone }: { kind: 'payment' | 'recovery'; row: Flat; onDone(): void }) {
  const api = useApiClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [key] = useState(newIdempotencyKey);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button size="xs" variant="subtle" color="red" onClick={() => setOpen(true)}>
        Void
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Void ${kind}`}>
        <Stack>
          <TextInput label="Void reason" required value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={busy}
              disabled={!reason.trim()}
              onClick={async () => {
                setBusy(true);
                try {
                  await (kind === 'payment' ? voidPayment : voidRecovery)(api, row.id, reason.trim(), key);
                  setOpen(false);
                  onDone();
                } catch (e) {
                  setError(new Error(errorMessageOf(e)));
                } finally {
                  setBusy(false);
                }
              }}
            >
              Void {kind}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** Amounts stay decimal strings; grouped and rounded by the SDK's formatter, never via floats. */
const formatAmount = (value: unknown) => formatMoney(text(value) || '0');

/** A column: its header, its cell, and whether it holds figures (right-aligned, never wrapped). */
type Column = [string, (row: Flat) => React.ReactNode, 'num'?];

function LedgerTable({
  label,
  rows,
  columns,
  loading = false,
}: {
  label: string;
  rows: Flat[];
  columns: Column[];
  loading?: boolean;
}) {
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        {label}
      </Title>
      {loading ? (
        <LoadingState rows={2} label={`Loading ${label.toLowerCase()}`} />
      ) : rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          None.
        </Text>
      ) : (
        <DataTable label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map(([name, , kind], index) => (
                <Table.Th key={name || `actions-${index}`} className={kind === 'num' ? 'atrium-num' : undefined}>
                  {name}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map(([name, cell, kind], index) => (
                  <Table.Td key={name || `actions-${index}`} className={kind === 'num' ? 'atrium-num' : undefined}>
                    {cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </DataTable>
      )}
    </Stack>
  );
}

const date = (row: Flat, field: string) => (text(row[field]) ? formatDate(text(row[field]).slice(0, 10)) : '');

/** Posted, pending or rejected; a voided row says so with its reason. */
function TransactionStatus({ row }: { row: Flat }) {
  if (row.void_reason) {
    return (
      <Group gap={6} wrap="nowrap">
        <StatusBadge labels={transactionStatusLabels} value="void" />
        <Text size="xs" c="dimmed">
          {text(row.void_reason)}
        </Text>
      </Group>
    );
  }
  return <StatusBadge labels={transactionStatusLabels} value={text(row.transaction_status)} />;
}

const typeBadge = (value: unknown) => (
  <StatusBadge labels={transactionTypeLabels} value={text(value)} variant="outline" />
);
const labelOf = (labels: Record<string, { label: string }>, value: unknown) =>
  text(value) ? (labels[text(value)]?.label ?? text(value)) : '';

/**
 * claims:accounting — the claim's totals (derived by the server from its ledger), totals by
 * exposure, reserves by category, payments, recoveries and transactions; reserves, payments and
 * recoveries (salvage, subrogation) are added through the shared money form, one Idempotency-Key
 * each; payments and recoveries are voided with a reason (a reversing entry); a
 * posting over the user's authority waits in "Pending approvals" for someone whose limit covers it.
 */
export function AccountingTab({ claim }: { claim: Claim }) {
  const services = useHostServices();
  const [params, setParams] = useSearchParams();
  const action = params.get('action');
  const financials = useFinancials(claim.id);
  const exposures = useExposures(claim.id);
  const reserves = useLedgerCollection(PATHS.reserves, claim.id);
  const payments = useLedgerCollection(PATHS.payments, claim.id);
  const recoveries = useLedgerCollection(PATHS.recoveries, claim.id);
  const transactions = useLedgerCollection(PATHS.transactions, claim.id);
  const approvals = useLedgerCollection(PATHS.approvals, claim.id);
  const changed = useAccountingChanged(claim.id);
  const canReserve = useCan('claims:reserve', 'create');
  const canPay = useCan('claims:payment', 'create');
  const canVoid = useCan('claims:payment', 'update');
  const canRecover = useCan('claims:recovery', 'create');
  const canVoidRecovery = useCan('claims:recovery', 'update');
  const parties = useClaimCollection(PATHS.parties, claim.id);
  const payors = useLookup(LEDGER_PATHS.payors);
  const [form, setForm] = useState<FormKind | null>(null);
  const openForm = form ?? (FORMS.includes(action as FormKind) ? (action as FormKind) : null);
  const close = () => {
    setForm(null);
    if (action) setParams({}, { replace: true });
  };
  const posted = (message: string) => {
    close();
    services.showToast({ message, kind: 'success' });
    void changed();
  };
  const exposureRows = exposures.data?.items ?? [];
  const exposureLabels = new Map(exposureOptions(exposureRows).map((o) => [o.value, o.label]));
  const exposureOf = (r: Flat) => exposureLabels.get(text(r.exposure_id)) ?? text(r.exposure_id);
  const nameIn = (rows: Flat[] | undefined, id: unknown) =>
    id == null ? '' : text(rows?.find((row) => row.id === String(id))?.name) || String(id);
  const byCategory = (financials.data?.exposures ?? []).flatMap((e) =>
    e.categories.map((c) => ({ ...c, id: `${e.exposure_id}:${c.reserve_category}`, type: 'category', exposure: e })),
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Accounting</Title>
        <Group gap="xs">
          {canReserve.allowed ? (
            <Button variant="light" leftSection={<IconCoin size={16} aria-hidden />} onClick={() => setForm('reserve')}>
              Add reserve
            </Button>
          ) : null}
          {canPay.allowed ? (
            <Button leftSection={<IconCash size={16} aria-hidden />} onClick={() => setForm('payment')}>
              Add payment
            </Button>
          ) : null}
          {canRecover.allowed ? (
            <Button
              variant="light"
              leftSection={<IconReceiptRefund size={16} aria-hidden />}
              onClick={() => setForm('recovery')}
            >
              Add recovery
            </Button>
          ) : null}
        </Group>
      </Group>
      <ErrorAlert error={financials.error} />
      {financials.data ? (
        <TotalsCards totals={financials.data.claim} />
      ) : financials.isPending ? (
        <LoadingState rows={2} label="Loading claim totals" />
      ) : null}
      {(financials.data?.exposures ?? []).length > 0 ? (
        <LedgerTable
          label="Totals by exposure"
          rows={(financials.data?.exposures ?? []).map((e) => ({ ...e, id: e.exposure_id, type: 'exposure' }))}
          columns={[
            ['Exposure', (r) => `${text(r.display_number)} ${text(r.exposure_name)}`],
            ['Outstanding reserve', (r) => formatAmount(r.reserve_outstanding), 'num'],
            ['Paid', (r) => formatAmount(r.paid), 'num'],
            ['Recovered', (r) => formatAmount(r.recovered), 'num'],
            ['Total incurred', (r) => formatAmount(r.total_incurred), 'num'],
            ['Net incurred', (r) => formatAmount(r.net_incurred), 'num'],
          ]}
        />
      ) : null}
      {byCategory.length > 0 ? (
        <LedgerTable
          label="Reserves by category"
          rows={byCategory}
          columns={[
            [
              'Exposure',
              (r) => `${text((r.exposure as Flat).display_number)} ${text((r.exposure as Flat).exposure_name)}`,
            ],
            ['Category', (r) => labelOf(reserveCategoryLabels, r.reserve_category)],
            ['Outstanding reserve', (r) => formatAmount(r.reserve_outstanding), 'num'],
            ['Paid', (r) => formatAmount(r.paid), 'num'],
            ['Recovered', (r) => formatAmount(r.recovered), 'num'],
            ['Total incurred', (r) => formatAmount(r.total_incurred), 'num'],
          ]}
        />
      ) : null}
      {(approvals.data ?? []).length > 0 ? (
        <LedgerTable
          label="Pending approvals"
          rows={approvals.data ?? []}
          columns={[
            ['Number', (r) => text(r.number)],
            ['Kind', (r) => typeBadge(r.transaction_type)],
            ['Amount', (r) => formatAmount(r.amount), 'num'],
            ['Requested by', (r) => text(r.requested_by)],
            ['Why', (r) => text(r.pending_reason)],
            // Shown only to those the server would let decide (approval-actions.tsx).
            ['', (r) => <ApprovalActions approval={r} onDone={() => void changed()} />],
          ]}
        />
      ) : null}
      <LedgerTable
        label="Reserves"
        rows={reserves.data ?? []}
        loading={reserves.isPending}
        columns={[
          ['Date', (r) => date(r, 'date_added')],
          ['Category', (r) => labelOf(reserveCategoryLabels, r.reserve_category)],
          ['Exposure', exposureOf],
          ['New reserve', (r) => formatAmount(r.new_amount ?? r.amount), 'num'],
          ['Status', (r) => <TransactionStatus row={r} />],
          ['Comments', (r) => text(r.comments)],
        ]}
      />
      <LedgerTable
        label="Payments"
        rows={payments.data ?? []}
        loading={payments.isPending}
        columns={[
          ['Date', (r) => date(r, 'date_added') || date(r, 'processed_date')],
          ['Payee', (r) => text(r.payee)],
          ['Category', (r) => labelOf(reserveCategoryLabels, r.reserve_category ?? r.reserve_category_id)],
          ['Amount', (r) => formatAmount(r.amount), 'num'],
          ['Method', (r) => labelOf(paymentMethodLabels, r.payment_method ?? r.payment_method_id)],
          ['Final', (r) => (r.final_payment ? 'Yes' : '')],
          ['Status', (r) => <TransactionStatus row={r} />],
          [
            '',
            (r) =>
              canVoid.allowed && !r.voided && r.transaction_status === 'posted' ? (
                <VoidButton kind="payment" row={r} onDone={() => void changed()} />
              ) : null,
          ],
        ]}
      />
      <LedgerTable
        label="Recoveries"
        rows={recoveries.data ?? []}
        loading={recoveries.isPending}
        columns={[
          ['Received', (r) => date(r, 'received_date')],
          ['Exposure', exposureOf],
          ['Type', (r) => labelOf(recoveryTypeLabels, r.recovery_type)],
          ['Category', (r) => labelOf(reserveCategoryLabels, r.reserve_category)],
          ['Payor', (r) => nameIn(payors.data, r.payor_id)],
          ['Party', (r) => nameIn(parties.data?.items, r.party_id)],
          ['Pay code', (r) => text(r.pay_code)],
          ['Amount', (r) => formatAmount(r.amount), 'num'],
          ['Comments', (r) => text(r.comments)],
          ['Status', (r) => <TransactionStatus row={r} />],
          [
            '',
            (r) =>
              canVoidRecovery.allowed && !r.voided && r.transaction_status === 'posted' ? (
                <VoidButton kind="recovery" row={r} onDone={() => void changed()} />
              ) : null,
          ],
        ]}
      />
      <LedgerTable
        label="Transactions"
        rows={transactions.data ?? []}
        loading={transactions.isPending}
        columns={[
          ['Number', (r) => text(r.number)],
          ['Type', (r) => typeBadge(r.transaction_type)],
          ['Category', (r) => labelOf(reserveCategoryLabels, r.reserve_category)],
          ['Amount', (r) => formatAmount(r.amount), 'num'],
          ['Posted', (r) => date(r, 'posted_date')],
          ['Status', (r) => <TransactionStatus row={r} />],
        ]}
      />
      {openForm === 'reserve' && canReserve.allowed && exposures.data ? (
        <ReserveForm exposures={exposureRows} opened onClose={close} onPosted={posted} />
      ) : null}
      {openForm === 'payment' && canPay.allowed && exposures.data ? (
        <PaymentForm exposures={exposureRows} opened onClose={close} onPosted={posted} />
      ) : null}
      {openForm === 'recovery' && canRecover.allowed && exposures.data ? (
        <RecoveryForm
          exposures={exposureRows}
          parties={parties.data?.items ?? []}
          opened
          onClose={close}
          onPosted={posted}
        />
      ) : null}
    </Stack>
  );
}
