import { Button, Card, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorAlert, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import {
  decideApproval,
  formatAmount,
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
import { RecoveryForm } from '../components/recovery-form.js';
import { useExposures } from './exposures-tab.js';

const FORMS = ['reserve', 'payment', 'recovery'] as const;
type FormKind = (typeof FORMS)[number];

const TOTAL_KEYS = Object.keys(TOTAL_LABELS) as (keyof Totals)[];

function TotalsCards({ totals }: { totals: Totals }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} aria-label="Claim totals">
      {TOTAL_KEYS.map((key) => (
        <Card key={key} withBorder padding="sm">
          <Text size="xs" c="dimmed">
            {TOTAL_LABELS[key]}
          </Text>
          <Text fw={600} data-testid={`total-${key}`}>
            {formatAmount(totals[key])}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
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

/** Approve posts the pending transaction; Reject needs a reason (the server refuses one without). */
function ApprovalActions({ approval, onDone }: { approval: Flat; onDone(): void }) {
  const api = useApiClient();
  const [error, setError] = useState<unknown>(null);
  const [reason, setReason] = useState('');
  const decide = async (decision: 'approve' | 'reject') => {
    setError(null);
    try {
      await decideApproval(api, approval.id, decision, reason.trim());
      onDone();
    } catch (e) {
      setError(new Error(errorMessageOf(e)));
    }
  };
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button size="xs" onClick={() => decide('approve')}>
          Approve
        </Button>
        <TextInput
          size="xs"
          placeholder="Reason"
          aria-label={`Reason for ${text(approval.transaction_number)}`}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <Button size="xs" variant="light" color="red" disabled={!reason.trim()} onClick={() => decide('reject')}>
          Reject
        </Button>
      </Group>
      <ErrorAlert error={error} />
    </Stack>
  );
}

function LedgerTable({
  label,
  rows,
  columns,
}: {
  label: string;
  rows: Flat[];
  columns: [string, (row: Flat) => React.ReactNode][];
}) {
  return (
    <Stack gap="xs">
      <Title order={4}>{label}</Title>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          None.
        </Text>
      ) : (
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map(([name]) => (
                <Table.Th key={name}>{name}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map(([name, cell]) => (
                  <Table.Td key={name}>{cell(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

const date = (row: Flat, field: string) => text(row[field]).slice(0, 10);

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
  const canApprove = useCan('claims:transaction', 'approve');
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
        <Title order={3}>Accounting</Title>
        <Group>
          {canReserve.allowed ? (
            <Button variant="light" onClick={() => setForm('reserve')}>
              Add reserve
            </Button>
          ) : null}
          {canPay.allowed ? <Button onClick={() => setForm('payment')}>Add payment</Button> : null}
          {canRecover.allowed ? (
            <Button variant="light" onClick={() => setForm('recovery')}>
              Add recovery
            </Button>
          ) : null}
        </Group>
      </Group>
      <ErrorAlert error={financials.error} />
      {financials.data ? <TotalsCards totals={financials.data.claim} /> : null}
      {(financials.data?.exposures ?? []).length > 0 ? (
        <LedgerTable
          label="Totals by exposure"
          rows={(financials.data?.exposures ?? []).map((e) => ({ ...e, id: e.exposure_id, type: 'exposure' }))}
          columns={[
            ['Exposure', (r) => `${text(r.display_number)} ${text(r.exposure_name)}`],
            ['Outstanding reserve', (r) => formatAmount(r.reserve_outstanding)],
            ['Paid', (r) => formatAmount(r.paid)],
            ['Recovered', (r) => formatAmount(r.recovered)],
            ['Total incurred', (r) => formatAmount(r.total_incurred)],
            ['Net incurred', (r) => formatAmount(r.net_incurred)],
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
            ['Category', (r) => text(r.reserve_category)],
            ['Outstanding reserve', (r) => formatAmount(r.reserve_outstanding)],
            ['Paid', (r) => formatAmount(r.paid)],
            ['Recovered', (r) => formatAmount(r.recovered)],
            ['Total incurred', (r) => formatAmount(r.total_incurred)],
          ]}
        />
      ) : null}
      {(approvals.data ?? []).length > 0 ? (
        <LedgerTable
          label="Pending approvals"
          rows={approvals.data ?? []}
          columns={[
            ['Number', (r) => text(r.number)],
            ['Kind', (r) => text(r.transaction_type)],
            ['Amount', (r) => formatAmount(r.amount)],
            ['Requested by', (r) => text(r.requested_by)],
            ['Why', (r) => text(r.pending_reason)],
            ['', (r) => (canApprove.allowed ? <ApprovalActions approval={r} onDone={() => void changed()} /> : null)],
          ]}
        />
      ) : null}
      <LedgerTable
        label="Reserves"
        rows={reserves.data ?? []}
        columns={[
          ['Date', (r) => date(r, 'date_added')],
          ['Category', (r) => text(r.reserve_category)],
          ['Exposure', exposureOf],
          ['New reserve', (r) => formatAmount(r.new_amount ?? r.amount)],
          ['Status', (r) => text(r.transaction_status)],
          ['Comments', (r) => text(r.comments)],
        ]}
      />
      <LedgerTable
        label="Payments"
        rows={payments.data ?? []}
        columns={[
          ['Date', (r) => date(r, 'date_added') || date(r, 'processed_date')],
          ['Payee', (r) => text(r.payee)],
          ['Category', (r) => text(r.reserve_category ?? r.reserve_category_id)],
          ['Amount', (r) => formatAmount(r.amount)],
          ['Method', (r) => text(r.payment_method ?? r.payment_method_id)],
          ['Final', (r) => (r.final_payment ? 'Yes' : '')],
          ['Status', (r) => (r.void_reason ? `Void: ${text(r.void_reason)}` : text(r.transaction_status))],
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
        columns={[
          ['Received', (r) => date(r, 'received_date')],
          ['Exposure', exposureOf],
          ['Type', (r) => text(r.recovery_type)],
          ['Category', (r) => text(r.reserve_category)],
          ['Payor', (r) => nameIn(payors.data, r.payor_id)],
          ['Party', (r) => nameIn(parties.data?.items, r.party_id)],
          ['Pay code', (r) => text(r.pay_code)],
          ['Amount', (r) => formatAmount(r.amount)],
          ['Comments', (r) => text(r.comments)],
          ['Status', (r) => (r.void_reason ? `Void: ${text(r.void_reason)}` : text(r.transaction_status))],
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
        columns={[
          ['Number', (r) => text(r.number)],
          ['Type', (r) => text(r.transaction_type)],
          ['Category', (r) => text(r.reserve_category)],
          ['Amount', (r) => formatAmount(r.amount)],
          ['Posted', (r) => date(r, 'posted_date')],
          ['Status', (r) => text(r.transaction_status)],
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
