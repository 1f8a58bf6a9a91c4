import { Stack, Table, Title } from '@mantine/core';
import IconCreditCard from '@tabler/icons-react/icons/IconCreditCard';
import { useQuery } from '@tanstack/react-query';
import {
  DataTable,
  EmptyState,
  PageHeader,
  QueryState,
  StatusBadge,
  defineStatusLabels,
  formatDate,
  formatMoney,
  useApiClient,
} from '@atrium/sdk';
import { getPayments, reportKeys } from '../reports-api.js';

const INVOICE_STATUS = defineStatusLabels({
  open: { label: 'Open', tone: 'warning' },
  paid: { label: 'Paid', tone: 'success' },
  void: { label: 'Void', tone: 'neutral' },
});
const METHODS: Record<string, string> = { ach: 'ACH', card: 'Card', check: 'Check', cash: 'Cash', wire: 'Wire' };

/** Agent portal: the invoices of the agent's policies and the payments received on them. */
export default function PaymentsPage() {
  const api = useApiClient();
  const payments = useQuery({ queryKey: reportKeys.payments, queryFn: ({ signal }) => getPayments(api, signal) });
  return (
    <Stack>
      <PageHeader
        title="Payments"
        icon={IconCreditCard}
        description="Invoices of your policies and the payments received on them."
      />
      <QueryState query={payments}>
        {(data) => (
          <Stack gap="lg">
            <Stack gap="xs">
              <Title order={2} size="h4">
                Invoices
              </Title>
              {data.invoices.length === 0 ? (
                <EmptyState title="No invoices." description="Your policies have no invoices yet." />
              ) : (
                <DataTable label="Invoices">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Policy</Table.Th>
                      <Table.Th>Invoice</Table.Th>
                      <Table.Th>Invoice date</Table.Th>
                      <Table.Th>Due date</Table.Th>
                      <Table.Th ta="right">Amount</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Description</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.invoices.map((invoice) => (
                      <Table.Tr key={invoice.number}>
                        <Table.Td>{invoice.policy_number}</Table.Td>
                        <Table.Td>{invoice.number}</Table.Td>
                        <Table.Td>{formatDate(invoice.invoice_date)}</Table.Td>
                        <Table.Td>{formatDate(invoice.due_date)}</Table.Td>
                        <Table.Td ta="right">{formatMoney(invoice.amount)}</Table.Td>
                        <Table.Td>
                          <StatusBadge labels={INVOICE_STATUS} value={invoice.status} />
                        </Table.Td>
                        <Table.Td>{invoice.description}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </DataTable>
              )}
            </Stack>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Payments received
              </Title>
              {data.payments.length === 0 ? (
                <EmptyState
                  title="No payments received."
                  description="No payment has been received on your policies yet."
                />
              ) : (
                <DataTable label="Payments received">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Policy</Table.Th>
                      <Table.Th>Received on</Table.Th>
                      <Table.Th ta="right">Amount</Table.Th>
                      <Table.Th>Method</Table.Th>
                      <Table.Th>Invoice</Table.Th>
                      <Table.Th>Reference</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.payments.map((payment, index) => (
                      <Table.Tr key={`${payment.reference}-${index}`}>
                        <Table.Td>{payment.policy_number}</Table.Td>
                        <Table.Td>{formatDate(payment.received_on)}</Table.Td>
                        <Table.Td ta="right">{formatMoney(payment.amount)}</Table.Td>
                        <Table.Td>{METHODS[payment.method] ?? payment.method}</Table.Td>
                        <Table.Td>{payment.invoice_number ?? '–'}</Table.Td>
                        <Table.Td>{payment.reference || '–'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </DataTable>
              )}
            </Stack>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
