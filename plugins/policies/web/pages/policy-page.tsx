import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import {
  DataTable,
  EmptyState,
  ErrorAlert,
  PageHeader,
  QueryState,
  Stat,
  StatusBadge,
  formatDate,
  formatDateTime,
  formatMoney,
  useApiClient,
  useCan,
  useHostServices,
  usePluginContextKey,
  type ApiClient,
  type QueryLike,
} from '@atrium/sdk';
import {
  INSTALLMENT_STATUS_LABELS,
  METHOD_LABELS,
  POLICY_STATUS_LABELS,
  TRANSACTION_STATUS_LABELS,
  TRANSACTION_TYPE_LABELS,
  coverageLabel,
  type Billing,
  type Comparison,
  type FormattedRisk,
  type OosConflict,
  type Page,
  type PolicyDetail,
  type Revision,
  type Transaction,
} from '../policies-api.js';
import { DeclarationsButton } from './declarations-button.js';

type Action = 'endorse' | 'cancel' | 'reinstate' | 'renew' | 'compare';
const ACTIONS: Action[] = ['endorse', 'cancel', 'reinstate', 'renew', 'compare'];
const money = (value: string | null | undefined) => (value == null ? '–' : formatMoney(value, 'USD'));

/** Starts a transaction and waits for its job to finish (completed or failed). */
async function runTransaction(api: ApiClient, body: Record<string, unknown>): Promise<Transaction> {
  let row = await api.post<Transaction>('/policies/policy-transactions/', body);
  const waiting = (t: Transaction) =>
    (t.status === 'initiated' || t.status === 'in_progress') && t.oos_status !== 'conflicts';
  for (let i = 0; i < 600 && waiting(row); i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    row = await api.get<Transaction>(`/policies/policy-transactions/${row.id}/`);
  }
  return row;
}

/**
 * The policy information screen: summary and premium to date, risk tabs, coverages, billing
 * (installments, invoices, payments, balance), transactions and revisions, and the actions the
 * caller may take (endorse, cancel, reinstate, renew, compare revisions). Agents land here from
 * /policies/policy/{id}; staff also from /{product}/policies/information?policyId={id}.
 */
export default function PolicyPage() {
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const policyId = params.policyId ?? search.get('policyId') ?? '';
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  usePluginContextKey('policies', 'policyOpen', policyId || null);

  const policy = useQuery({
    queryKey: ['policies', 'policy', policyId],
    queryFn: ({ signal }) => api.get<PolicyDetail>(`/policies/policies/${policyId}/`, { signal }),
    enabled: policyId !== '',
  });
  const risk = useQuery({
    queryKey: ['policies', 'risk', policyId],
    queryFn: ({ signal }) =>
      api.get<FormattedRisk>('/policies/formatted-risk/', { query: { policy_id: policyId }, signal }),
    enabled: policyId !== '',
  });
  const billing = useQuery({
    queryKey: ['policies', 'billing', policyId],
    queryFn: ({ signal }) =>
      api.post<Billing>(
        '/v2/payments/retrieve_policy_billing_information',
        { policy_id: Number(policyId) },
        { signal },
      ),
    enabled: policyId !== '',
  });
  const transactions = useQuery({
    queryKey: ['policies', 'transactions', policyId],
    queryFn: ({ signal }) =>
      api.get<Page<Transaction>>('/policies/policy-transactions/', {
        query: { 'filter[policy_id]': policyId },
        signal,
      }),
    enabled: policyId !== '',
  });
  const revisions = useQuery({
    queryKey: ['policies', 'revisions', policyId],
    queryFn: ({ signal }) =>
      api.get<Page<Revision>>('/policies/revisions/', { query: { 'filter[policy_id]': policyId }, signal }),
    enabled: policyId !== '',
  });

  const canEndorse = useCan('policies:transaction', 'endorse').allowed;
  const canCancel = useCan('policies:transaction', 'cancel').allowed;
  const canReinstate = useCan('policies:transaction', 'reinstate').allowed;
  const canRenew = useCan('policies:transaction', 'renew').allowed;
  const canDismiss = useCan('policies:transaction', 'dismiss').allowed;
  // The declarations are the documents module's; the column shows only to those who may read them.
  const canReadDocuments = useCan('documents:production-document', 'read').allowed;

  const requested = search.get('action') as Action | null;
  const [open, setOpen] = useState<Action | null>(null);
  useEffect(() => {
    if (requested && ACTIONS.includes(requested)) {
      setOpen(requested);
      const next = new URLSearchParams(search);
      next.delete('action');
      setSearch(next, { replace: true });
    }
  }, [requested, search, setSearch]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['policies'] });
  const transact = useMutation({
    mutationFn: (body: Record<string, unknown>) => runTransaction(api, { policy: Number(policyId), ...body }),
    onSuccess: async (row) => {
      await refresh();
      if (row.oos_status === 'conflicts') {
        setOpen(null);
        services.showToast({
          message: 'This endorsement is out of sequence: review its conflicts under Transactions.',
          kind: 'info',
        });
      } else if (row.status === 'completed') {
        setOpen(null);
        services.showToast({
          message: `${TRANSACTION_TYPE_LABELS[row.type] ?? 'Transaction'} completed.`,
          kind: 'success',
        });
      } else {
        services.showToast({ message: row.error ?? 'The transaction failed.', kind: 'error' });
      }
    },
  });

  if (!policyId) return <EmptyState title="No policy was named." />;
  return (
    <QueryState query={policy}>
      {(p) => {
        const canceled = p.status === 'Canceled';
        const term = p.terms.at(-1);
        const show = {
          endorse: canEndorse && !canceled,
          cancel: canCancel && !canceled,
          reinstate: canReinstate && canceled,
          renew: canRenew && !canceled,
        };
        return (
          <Stack>
            <PageHeader
              title={`Policy ${p.policy_number}`}
              description={`${p.product_name} · ${p.named_insured.name}${p.state ? ` · ${p.state}` : ''}${term ? ` · term ${formatDate(term.effective_date)} – ${formatDate(term.expiration_date)}` : ''}`}
              actions={
                <Group gap="xs">
                  {show.endorse ? <Button onClick={() => setOpen('endorse')}>Endorse</Button> : null}
                  {show.cancel ? (
                    <Button color="red" variant="light" onClick={() => setOpen('cancel')}>
                      Cancel policy
                    </Button>
                  ) : null}
                  {show.reinstate ? <Button onClick={() => setOpen('reinstate')}>Reinstate</Button> : null}
                  {show.renew ? (
                    <Button variant="light" onClick={() => setOpen('renew')}>
                      Renew
                    </Button>
                  ) : null}
                  <Button variant="default" onClick={() => setOpen('compare')}>
                    Compare revisions
                  </Button>
                </Group>
              }
            >
              <Group gap={6}>
                <StatusBadge labels={POLICY_STATUS_LABELS} value={p.status} />
                {p.cancellation_pending ? (
                  <Badge color="orange" variant="light" size="sm" tt="none">
                    Cancellation pending{' '}
                    {p.cancellation_pending_date ? `(${formatDate(p.cancellation_pending_date)})` : ''}
                  </Badge>
                ) : null}
              </Group>
            </PageHeader>
            {p.cancellation_pending ? (
              <Alert color="orange" title="Notice of cancellation sent">
                {p.cancellation_pending_reason ?? 'A notice of cancellation is out'}; the policy stays in force until it
                is canceled.
              </Alert>
            ) : null}
            {p.in_progress_oos_transaction ? (
              <Alert color="yellow" title="Out-of-sequence endorsement under review">
                A back-dated endorsement waits for review before it is committed: see Transactions.
              </Alert>
            ) : null}
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Stat label="Annual premium" value={money(p.annual_premium)} />
              <Stat label="Written premium" value={money(p.premium?.written)} />
              <Stat label="Earned to date" value={money(p.premium?.earned)} />
              <Stat label="Unearned" value={money(p.premium?.unearned)} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              Earned premium accrues daily: the annual premium of each revision × its days ÷{' '}
              {p.premium?.term_days ?? 365} days of the term.
            </Text>
            <Tabs defaultValue="risk" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="risk">Risk</Tabs.Tab>
                <Tabs.Tab value="coverages">Coverages</Tabs.Tab>
                <Tabs.Tab value="billing">Billing</Tabs.Tab>
                <Tabs.Tab value="transactions">Transactions</Tabs.Tab>
                <Tabs.Tab value="revisions">Revisions</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="risk" pt="md">
                <QueryState
                  query={risk}
                  isEmpty={(r) => r.tabs.length === 0}
                  empty={<EmptyState title="No risk data." />}
                >
                  {(r) => (
                    <SimpleGrid cols={{ base: 1, md: 2 }}>
                      {r.tabs.map((tab) => (
                        <Stack key={tab.tab} gap={4}>
                          <Text fw={600} component="h2" size="md">
                            {tab.tab}
                          </Text>
                          <Table>
                            <Table.Tbody>
                              {tab.rows.map((row) => (
                                <Table.Tr key={row.label}>
                                  <Table.Th scope="row" w="45%">
                                    {row.label}
                                  </Table.Th>
                                  <Table.Td>{row.value}</Table.Td>
                                </Table.Tr>
                              ))}
                            </Table.Tbody>
                          </Table>
                        </Stack>
                      ))}
                    </SimpleGrid>
                  )}
                </QueryState>
              </Tabs.Panel>
              <Tabs.Panel value="coverages" pt="md">
                <QueryState
                  query={risk}
                  isEmpty={(r) => r.coverages.length === 0}
                  empty={<EmptyState title="No coverages rated." />}
                >
                  {(r) => (
                    <DataTable label="Coverages">
                      <thead>
                        <tr>
                          <th>Coverage</th>
                          <th>Limit</th>
                          <th>Deductible</th>
                          <th>Premium</th>
                        </tr>
                      </thead>
                      <tbody>
                        {r.coverages.map((c) => (
                          <tr key={c.name}>
                            <td>{coverageLabel(c.name)}</td>
                            <td>{c.limit ? formatMoney(c.limit, 'USD', { places: 0 }) : '–'}</td>
                            <td>{c.deductible ? formatMoney(c.deductible, 'USD', { places: 0 }) : '–'}</td>
                            <td>{money(c.premium)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </DataTable>
                  )}
                </QueryState>
              </Tabs.Panel>
              <Tabs.Panel value="billing" pt="md">
                <BillingPanel billing={billing} />
              </Tabs.Panel>
              <Tabs.Panel value="transactions" pt="md">
                <TransactionsPanel
                  transactions={transactions}
                  canDismiss={canDismiss}
                  canEndorse={canEndorse}
                  onChanged={refresh}
                />
              </Tabs.Panel>
              <Tabs.Panel value="revisions" pt="md">
                <QueryState query={revisions}>
                  {(r) => (
                    <DataTable label="Revisions">
                      <thead>
                        <tr>
                          <th>Revision</th>
                          <th>Effective</th>
                          <th>Status</th>
                          <th>Description</th>
                          <th>Annual premium</th>
                          <th>Written change</th>
                          {canReadDocuments ? <th>Declarations</th> : null}
                        </tr>
                      </thead>
                      <tbody>
                        {r.results.map((rev) => (
                          <tr key={rev.id}>
                            <td>{rev.full_policy_number}</td>
                            <td>{formatDate(rev.revision_date)}</td>
                            <td>
                              {rev.policy_status}
                              {rev.revision_state === 'superseded' ? (
                                <Text size="xs" c="dimmed">
                                  Superseded
                                </Text>
                              ) : null}
                            </td>
                            <td>{rev.description}</td>
                            <td>{money(rev.annual_premium)}</td>
                            <td>{money(rev.written_premium_delta)}</td>
                            {canReadDocuments ? (
                              <td>
                                <DeclarationsButton
                                  revisionId={rev.id}
                                  policyId={policyId}
                                  label={`Declarations of ${rev.full_policy_number}`}
                                />
                              </td>
                            ) : null}
                          </tr>
                        ))}
                      </tbody>
                    </DataTable>
                  )}
                </QueryState>
              </Tabs.Panel>
            </Tabs>
            <TransactionModal
              action={open}
              policy={p}
              revisions={revisions.data?.results ?? []}
              pending={transact.isPending}
              error={transact.error}
              onClose={() => {
                setOpen(null);
                transact.reset();
              }}
              onSubmit={(body) => transact.mutate(body)}
            />
          </Stack>
        );
      }}
    </QueryState>
  );
}

function BillingPanel({ billing }: { billing: QueryLike<Billing> }) {
  return (
    <QueryState query={billing}>
      {(b) => (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stat label="Billed" value={money(b.total_billed)} />
            <Stat label="Paid" value={money(b.total_paid)} />
            <Stat label="Balance" value={money(b.balance)} />
          </SimpleGrid>
          <DataTable label="Installments">
            <thead>
              <tr>
                <th>Installment</th>
                <th>Due</th>
                <th>Premium</th>
                <th>Fee</th>
                <th>Total</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {b.installments.map((i) => (
                <tr key={i.id}>
                  <td>{i.number}</td>
                  <td>{formatDate(i.due_date)}</td>
                  <td>{money(i.amount)}</td>
                  <td>{money(i.fee)}</td>
                  <td>{money(i.total)}</td>
                  <td>
                    <StatusBadge labels={INSTALLMENT_STATUS_LABELS} value={i.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          <DataTable label="Invoices">
            <thead>
              <tr>
                <th>Invoice</th>
                <th>Date</th>
                <th>Due</th>
                <th>Amount</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {b.invoices.map((i) => (
                <tr key={i.id}>
                  <td>{i.number}</td>
                  <td>{formatDate(i.invoice_date)}</td>
                  <td>{formatDate(i.due_date)}</td>
                  <td>{money(i.amount)}</td>
                  <td>
                    <StatusBadge labels={INSTALLMENT_STATUS_LABELS} value={i.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          {b.payments.length ? (
            <DataTable label="Payments">
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Amount</th>
                  <th>Method</th>
                  <th>Reference</th>
                </tr>
              </thead>
              <tbody>
                {b.payments.map((pm) => (
                  <tr key={pm.id}>
                    <td>{formatDate(pm.received_on)}</td>
                    <td>{money(pm.amount)}</td>
                    <td>{pm.method === 'ach' ? 'Bank transfer' : pm.method === 'card' ? 'Card' : 'Check'}</td>
                    <td>{pm.reference}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          ) : null}
        </Stack>
      )}
    </QueryState>
  );
}

function TransactionsPanel({
  transactions,
  canDismiss,
  canEndorse,
  onChanged,
}: {
  transactions: QueryLike<Page<Transaction>>;
  canDismiss: boolean;
  canEndorse: boolean;
  onChanged(): unknown;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const [dismissing, setDismissing] = useState<Transaction | null>(null);
  const [reviewing, setReviewing] = useState<Transaction | null>(null);
  const [reason, setReason] = useState('');
  const dismiss = useMutation({
    mutationFn: () => api.patch(`/policies/policy-transactions/${dismissing!.id}/`, { reason_dismissed: reason }),
    onSuccess: () => {
      setDismissing(null);
      setReason('');
      void onChanged();
    },
  });
  const commit = useMutation({
    mutationFn: async () => {
      let row = await api.post<Transaction>(`/policies/policy-transactions/${reviewing!.id}/commit-oos/`);
      for (let i = 0; i < 600 && (row.status === 'initiated' || row.status === 'in_progress'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        row = await api.get<Transaction>(`/policies/policy-transactions/${row.id}/`);
      }
      return row;
    },
    onSuccess: (row) => {
      setReviewing(null);
      services.showToast({
        message:
          row.status === 'completed' ? 'Out-of-sequence endorsement committed.' : (row.error ?? 'The commit failed.'),
        kind: row.status === 'completed' ? 'success' : 'error',
      });
      void onChanged();
    },
  });
  const conflicts = (reviewing?.result?.conflicts ?? []) as OosConflict[];
  const laterRevisions = (reviewing?.result?.laterRevisions ?? []) as {
    revisionNumber: number;
    revisionDate: string;
  }[];
  const show = (value: unknown) => (value === null || value === undefined ? '–' : String(value));
  return (
    <>
      <QueryState query={transactions}>
        {(t) => (
          <DataTable label="Transactions">
            <thead>
              <tr>
                <th>Type</th>
                <th>Effective</th>
                <th>Description</th>
                <th>Status</th>
                <th>By</th>
                <th>Recorded</th>
                <th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </th>
              </tr>
            </thead>
            <tbody>
              {t.results.map((row) => (
                <tr key={row.id}>
                  <td>{TRANSACTION_TYPE_LABELS[row.type] ?? row.type}</td>
                  <td>{formatDate(row.effective_date)}</td>
                  <td>
                    {row.description}
                    {row.error ? (
                      <Text size="xs" c="red">
                        {row.error}
                      </Text>
                    ) : null}
                    {row.reason_dismissed ? (
                      <Text size="xs" c="dimmed">
                        Dismissed: {row.reason_dismissed}
                      </Text>
                    ) : null}
                    <TransactionNotes result={row.result} />
                  </td>
                  <td>
                    <StatusBadge labels={TRANSACTION_STATUS_LABELS} value={row.status} />
                  </td>
                  <td>{row.username}</td>
                  <td>{formatDateTime(row.date_created)}</td>
                  <td>
                    {row.oos_status === 'conflicts' && row.status === 'in_progress' ? (
                      <Button size="xs" variant="light" onClick={() => setReviewing(row)}>
                        Review conflicts
                      </Button>
                    ) : null}
                    {canDismiss && row.status === 'failed' && !row.reason_dismissed ? (
                      <Button size="xs" variant="subtle" onClick={() => setDismissing(row)}>
                        Dismiss
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </QueryState>
      <Modal
        opened={reviewing !== null}
        onClose={() => setReviewing(null)}
        title="Review out-of-sequence endorsement"
        size="lg"
      >
        <Stack>
          <Text size="sm">
            This endorsement takes effect before{' '}
            {laterRevisions.map((r) => `revision ${r.revisionNumber} (${formatDate(r.revisionDate)})`).join(', ')}.
            Committing it re-issues those revisions with this change carried in; where a later revision changed the same
            field, the later value is kept.
          </Text>
          {conflicts.length ? (
            <DataTable label="Conflicts">
              <thead>
                <tr>
                  <th>Revision</th>
                  <th>Field</th>
                  <th>Later value (kept)</th>
                  <th>This endorsement</th>
                </tr>
              </thead>
              <tbody>
                {conflicts.map((c) => (
                  <tr key={`${c.revisionNumber}-${c.field}`}>
                    <td>
                      {c.revisionNumber} ({formatDate(c.revisionDate)})
                    </td>
                    <td>{c.field}</td>
                    <td>{show(c.laterValue)}</td>
                    <td>{show(c.outOfSequenceValue)}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          ) : (
            <Text size="sm">No field conflicts with the later revisions.</Text>
          )}
          {commit.error ? <ErrorAlert error={commit.error} /> : null}
          <Group justify="flex-end">
            {canDismiss ? (
              <Button
                variant="default"
                onClick={() => {
                  setDismissing(reviewing);
                  setReviewing(null);
                }}
              >
                Withdraw
              </Button>
            ) : null}
            {canEndorse ? (
              <Button loading={commit.isPending} onClick={() => commit.mutate()}>
                Commit
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dismissing !== null} onClose={() => setDismissing(null)} title="Dismiss failed transaction">
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
    </>
  );
}

const TITLES: Record<Action, string> = {
  endorse: 'Endorse policy',
  cancel: 'Cancel policy',
  reinstate: 'Reinstate policy',
  renew: 'Renew policy',
  compare: 'Compare revisions',
};

function TransactionModal({
  action: opened,
  policy,
  revisions,
  pending,
  error,
  onClose,
  onSubmit,
}: {
  action: Action | null;
  policy: PolicyDetail;
  revisions: Revision[];
  pending: boolean;
  error: unknown;
  onClose(): void;
  onSubmit(body: Record<string, unknown>): void;
}) {
  // The last action stays shown while the modal closes (no other title or button flickers in).
  const [action, setAction] = useState<Action | null>(opened);
  useEffect(() => {
    if (opened) setAction(opened);
  }, [opened]);
  const today = new Date().toISOString().slice(0, 10);
  const term = policy.terms.at(-1);
  const [effective, setEffective] = useState(today);
  const [premium, setPremium] = useState(policy.rerateable ? '' : (policy.annual_premium ?? ''));
  const [description, setDescription] = useState('');
  const [field, setField] = useState('');
  const [value, setValue] = useState('');
  const [method, setMethod] = useState<string | null>('pro_rata');
  const [reason, setReason] = useState<string | null>('Insured request');
  useEffect(() => {
    if (!opened) return;
    setEffective(opened === 'renew' && term ? term.expiration_date : today);
    setPremium(policy.rerateable ? '' : (policy.annual_premium ?? ''));
  }, [opened, term, today, policy.annual_premium, policy.rerateable]);
  const shortRateNote =
    policy.short_rate?.kind === 'factor'
      ? `Short rate returns ${Number(policy.short_rate.factor) * 100}% of the pro-rata return.`
      : policy.short_rate?.kind === 'table'
        ? 'Short rate keeps a percentage of the premium by days in force (the product’s table).'
        : '';
  return (
    <Modal
      opened={opened !== null}
      onClose={onClose}
      title={action ? TITLES[action] : ''}
      size={action === 'compare' ? 'xl' : 'md'}
    >
      {action === 'compare' ? (
        <CompareRevisions revisions={revisions} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (action === 'endorse') {
              onSubmit({
                type: 'endorsement',
                effective_date: effective,
                ...(premium.trim() ? { annual_premium: premium.trim() } : {}),
                description,
                ...(field.trim() ? { changes: { [field.trim()]: value } } : {}),
              });
            } else if (action === 'cancel') {
              onSubmit({ type: 'cancellation', effective_date: effective, method, reason, description });
            } else if (action === 'reinstate') {
              onSubmit({ type: 'reinstatement', effective_date: effective, description });
            } else if (action === 'renew') {
              onSubmit({ type: 'renewal', effective_date: effective, description });
            }
          }}
        >
          <Stack>
            {action === 'reinstate' ? (
              <Text size="sm">The policy is reinstated from its cancellation date, with the premium it had.</Text>
            ) : null}
            {action === 'renew' ? (
              <Text size="sm">
                {policy.rerateable
                  ? 'A new term starts when this one expires, re-rated on the product version in force then.'
                  : 'A new term starts when this one expires, at the current annual premium.'}
              </Text>
            ) : null}
            {action !== 'reinstate' ? (
              <TextInput
                type="date"
                label="Effective date"
                required
                value={effective}
                onChange={(e) => setEffective(e.currentTarget.value)}
                readOnly={action === 'renew'}
              />
            ) : null}
            {action === 'endorse' ? (
              <>
                <TextInput
                  label="New annual premium"
                  required={!policy.rerateable}
                  description={
                    policy.rerateable ? 'Leave empty to re-rate the changed risk on the product version.' : undefined
                  }
                  inputMode="decimal"
                  value={premium}
                  onChange={(e) => setPremium(e.currentTarget.value)}
                />
                <Group grow>
                  <TextInput
                    label="Changed risk field"
                    placeholder={policy.rerateable ? 'vehicle.usage' : 'dwelling.roof_type'}
                    value={field}
                    onChange={(e) => setField(e.currentTarget.value)}
                  />
                  <TextInput label="New value" value={value} onChange={(e) => setValue(e.currentTarget.value)} />
                </Group>
              </>
            ) : null}
            {action === 'cancel' ? (
              <>
                <Select
                  label="Method"
                  required
                  value={method}
                  onChange={setMethod}
                  data={Object.entries(METHOD_LABELS).map(([v, label]) => ({ value: v, label }))}
                  allowDeselect={false}
                />
                {method === 'short_rate' && shortRateNote ? (
                  <Text size="xs" c="dimmed">
                    {shortRateNote}
                  </Text>
                ) : null}
                <Select
                  label="Reason"
                  value={reason}
                  onChange={setReason}
                  data={[
                    'Insured request',
                    'Non-payment of premium',
                    'Underwriting reasons',
                    'Material misrepresentation',
                  ]}
                  allowDeselect={false}
                />
              </>
            ) : null}
            <TextInput
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            {error ? <ErrorAlert error={error} /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
              <Button type="submit" loading={pending}>
                {action === 'endorse'
                  ? 'Endorse'
                  : action === 'cancel'
                    ? 'Cancel policy'
                    : action === 'reinstate'
                      ? 'Reinstate'
                      : 'Renew'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function CompareRevisions({ revisions }: { revisions: Revision[] }) {
  const api = useApiClient();
  const options = revisions.map((r) => ({
    value: String(r.id),
    label: `${r.full_policy_number} · ${formatDate(r.revision_date)} · ${r.description}`,
  }));
  const [from, setFrom] = useState<string | null>(options.at(-1)?.value ?? null);
  const [to, setTo] = useState<string | null>(options[0]?.value ?? null);
  const comparison = useQuery({
    queryKey: ['policies', 'compare', from, to],
    queryFn: ({ signal }) =>
      api.get<Comparison>('/policies/compare-transactions/', {
        query: { from_revision: from!, to_revision: to! },
        signal,
      }),
    enabled: Boolean(from && to && from !== to),
  });
  return (
    <Stack>
      <Group grow>
        <Select label="From revision" data={options} value={from} onChange={setFrom} allowDeselect={false} />
        <Select label="To revision" data={options} value={to} onChange={setTo} allowDeselect={false} />
      </Group>
      {from && to && from !== to ? (
        <QueryState query={comparison}>
          {(c) => (
            <Stack>
              <Text fw={600}>Annual premium change: {money(c.annual_premium_change)}</Text>
              <DataTable label="Changed risk data">
                <thead>
                  <tr>
                    <th>Field</th>
                    <th>From</th>
                    <th>To</th>
                  </tr>
                </thead>
                <tbody>
                  {c.changes.length === 0 ? (
                    <tr>
                      <td colSpan={3}>No risk data changed.</td>
                    </tr>
                  ) : (
                    c.changes.map((ch) => (
                      <tr key={ch.field}>
                        <td>{ch.field}</td>
                        <td>{ch.from ?? '–'}</td>
                        <td>{ch.to ?? '–'}</td>
                      </tr>
                    ))
                  )}
                </tbody>
              </DataTable>
              <PremiumByFactor comparison={c} />
              <DataTable label="Premium by coverage">
                <thead>
                  <tr>
                    <th>Coverage</th>
                    <th>From</th>
                    <th>To</th>
                    <th>Change</th>
                  </tr>
                </thead>
                <tbody>
                  {c.coverages.map((cv) => (
                    <tr key={cv.name}>
                      <td>{coverageLabel(cv.name)}</td>
                      <td>{money(cv.from)}</td>
                      <td>{money(cv.to)}</td>
                      <td>{money(cv.change)}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            </Stack>
          )}
        </QueryState>
      ) : (
        <Text size="sm">Choose two different revisions.</Text>
      )}
    </Stack>
  );
}

const FACTOR_KIND: Record<string, string> = {
  field: 'Answer',
  ancestor_field: 'Answer',
  calculation: 'Calculation',
  limit: 'Limit',
  deductible: 'Deductible',
  item: 'Coverage',
  children: 'Sub-risks',
  table: 'Rate table',
};

/** Shows a worksheet figure: money-like values as amounts, factors and answers as they are. */
const figure = (value: string | null) => (value == null ? '–' : value);

/**
 * The premium explained factor by factor: each calculation of the two worksheets side by side with
 * the difference, under it the inputs and rate-table reads that moved; then the rated premium
 * change and what was entered without re-rating.
 */
function PremiumByFactor({ comparison: c }: { comparison: Comparison }) {
  const moved = c.calculations.filter((line) => line.change !== '0' || line.factors.length > 0);
  const shown = moved.length ? moved : c.calculations;
  return (
    <Stack gap="xs">
      <DataTable label="Premium by factor">
        <thead>
          <tr>
            <th>Risk</th>
            <th>Factor</th>
            <th>From</th>
            <th>To</th>
            <th>Difference</th>
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td colSpan={5}>Neither revision has a rating worksheet.</td>
            </tr>
          ) : (
            shown.flatMap((line) => [
              <tr key={`${line.risk}:${line.calculation}`}>
                <td>{line.risk}</td>
                <td>
                  <Text size="sm" fw={600}>
                    {coverageLabel(line.calculation)}
                  </Text>
                </td>
                <td>{figure(line.from)}</td>
                <td>{figure(line.to)}</td>
                <td>{figure(line.change)}</td>
              </tr>,
              ...line.factors.map((f) => (
                <tr key={`${line.risk}:${line.calculation}:${f.kind}:${f.name}`}>
                  <td />
                  <td>
                    {FACTOR_KIND[f.kind] ?? 'Input'}: {coverageLabel(f.name)}
                  </td>
                  <td>{figure(f.from)}</td>
                  <td>{figure(f.to)}</td>
                  <td>{figure(f.change)}</td>
                </tr>
              )),
            ])
          )}
        </tbody>
      </DataTable>
      <Text size="sm">
        Rated premium: {money(c.rated_premium_from)} → {money(c.rated_premium_to)} ({money(c.rated_premium_change)})
      </Text>
      {c.not_rated_change !== '0.00' ? (
        <Text size="sm">Entered on an endorsement without re-rating: {money(c.not_rated_change)}</Text>
      ) : null}
    </Stack>
  );
}

/** How a completed transaction was priced and billed, from its result (docs/policies.md). */
function TransactionNotes({ result }: { result: Record<string, unknown> | null | undefined }) {
  if (!result) return null;
  const notes: string[] = [];
  if (result.rerated === true && typeof result.productVersion === 'string') {
    notes.push(`Re-rated on product version ${result.productVersion}.`);
  }
  if (typeof result.carriedReason === 'string') notes.push(result.carriedReason);
  if (typeof result.billingChange === 'string') {
    const credit = result.billingChange.startsWith('-');
    const amount = money(credit ? result.billingChange.slice(1) : result.billingChange);
    const verb = credit ? 'Credited' : 'Billed';
    notes.push(
      result.spreadOver
        ? `${verb} ${amount} over ${String(result.spreadOver)} open installments.`
        : `${verb} ${amount} as an adjustment installment.`,
    );
  }
  return notes.map((note) => (
    <Text key={note} size="xs" c="dimmed">
      {note}
    </Text>
  ));
}
