import {
  Alert,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import IconPlugConnected from '@tabler/icons-react/icons/IconPlugConnected';
import {
  ConfirmButton,
  EmptyState,
  ErrorState,
  LoadingState,
  PageHeader,
  useApiClient,
  useHostServices,
} from '@atrium/sdk';
import {
  ENVIRONMENT_LABELS,
  ENVIRONMENTS,
  STATUS_LABELS,
  VENDOR_LABELS,
  type VendorEnvironment,
  type VendorId,
} from '../../shared/vendors.js';
import {
  ENVELOPE_STATUS_LABELS,
  INVOICE_STATUS_LABELS,
  keys,
  when,
  type ConnectionView,
  type EnvelopeRecord,
  type InvoiceRecord,
} from '../api.js';
import { authorizeInPopup } from '../oauth-popup.js';
import { statusColor } from './status-color.js';

/** The spec's calls per vendor: QuickBooks on the accounting host, DocuSign on the e-signature host. */
const CALLS: Record<VendorId, { start: string; disconnect: string }> = {
  quickbooks: { start: '/accounting/quickbooks/oauth/auth', disconnect: '/accounting/quickbooks/oauth/auth' },
  docusign: { start: '/esignature/oauth/url', disconnect: '/esignature/oauth' },
};
const CLIENT_ID_LABEL: Record<VendorId, string> = { quickbooks: 'Client ID', docusign: 'Integration key' };
const message = (error: unknown, fallback: string) => (error instanceof Error && error.message) || fallback;

function useConnection(vendor: VendorId) {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.connection(vendor),
    queryFn: async () =>
      vendor === 'docusign'
        ? (await api.get<{ data: { attributes: ConnectionView } }>('/esignature/config/')).data.attributes
        : api.get<ConnectionView>('/vendors/connections/quickbooks/'),
  });
}

function VendorPage({ vendor }: { vendor: VendorId }) {
  const connection = useConnection(vendor);
  const label = VENDOR_LABELS[vendor];
  return (
    <Stack>
      <PageHeader title={label.name} icon={IconPlugConnected} description={label.description} />
      {connection.isPending ? (
        <LoadingState label={`Loading ${label.name}`} />
      ) : connection.isError ? (
        <ErrorState
          error={
            vendor === 'docusign'
              ? new Error('Failed to retrieve E-Signature config, please try again later.')
              : connection.error
          }
          onRetry={() => void connection.refetch()}
        />
      ) : (
        <>
          <StatusCard view={connection.data} />
          <CredentialsCard view={connection.data} />
          {vendor === 'quickbooks' ? <InvoicesCard view={connection.data} /> : <EnvelopesCard view={connection.data} />}
        </>
      )}
    </Stack>
  );
}

function StatusCard({ view }: { view: ConnectionView }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.all });
  const waiting = useRef<AbortController | null>(null);
  const connect = useMutation({
    mutationFn: async () => {
      waiting.current = new AbortController();
      const params = await authorizeInPopup(async () => {
        const started = await api.get<{ links: { authorization_url: string } }>(CALLS[view.vendor].start);
        return started.links.authorization_url;
      }, waiting.current.signal);
      if (!params) return null;
      return api.post<ConnectionView>('/vendors/oauth/callback', params);
    },
    onMutate: () => setError(null),
    onSuccess: (connected) => {
      if (connected) showToast({ message: `${view.name} is connected.`, kind: 'success' });
      void refresh();
    },
    onError: (e) => {
      setError(message(e, `An error occurred while connecting ${view.name}. Please try again.`));
      void refresh();
    },
  });
  const connected = view.status === 'connected' || view.status === 'error' || view.status === 'expired';
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={3}>Connection</Title>
        <Group gap="xs">
          <Badge variant="light">{ENVIRONMENT_LABELS[view.environment]}</Badge>
          <Badge color={statusColor(view.status)} data-testid="connection-status">
            {STATUS_LABELS[view.status]}
          </Badge>
        </Group>
      </Group>
      <Table variant="vertical" withTableBorder={false} aria-label="Connection details">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={220}>{view.vendor === 'quickbooks' ? 'Company' : 'Account'}</Table.Th>
            <Table.Td>{view.account_name ?? '—'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Connected since</Table.Th>
            <Table.Td>{view.connected_at ? `${when(view.connected_at)} by ${view.connected_by}` : 'Never'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Last sync</Table.Th>
            <Table.Td>{when(view.last_sync_at)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Access renewed</Table.Th>
            <Table.Td>{view.last_refresh_at ? when(view.last_refresh_at) : 'Not yet'}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {view.last_error ? (
        <Alert color="red" title="Last error" mt="sm">
          {view.last_error} ({when(view.last_error_at)})
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" mt="sm" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group mt="md">
        <Button
          onClick={() => connect.mutate()}
          loading={connect.isPending}
          disabled={view.status === 'not_configured'}
        >
          {connected ? 'Connect again' : `Connect ${view.name}`}
        </Button>
        {connect.isPending ? (
          <Button variant="default" onClick={() => waiting.current?.abort()}>
            Cancel
          </Button>
        ) : null}
        {connected ? (
          <ConfirmButton
            label="connection"
            verb="disconnect"
            color="red"
            onConfirm={async () => {
              try {
                await api.delete(CALLS[view.vendor].disconnect);
                showToast({ message: `${view.name} is disconnected.`, kind: 'success' });
              } catch (e) {
                setError(message(e, `An error occurred while disconnecting ${view.name}. Please try again.`));
              }
              await refresh();
            }}
          >
            Disconnect
          </ConfirmButton>
        ) : null}
      </Group>
      {view.status === 'not_configured' ? (
        <Text size="sm" c="dimmed" mt="xs">
          Enter the app’s credentials below to connect.
        </Text>
      ) : null}
    </Card>
  );
}

function CredentialsCard({ view }: { view: ConnectionView }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [environment, setEnvironment] = useState<VendorEnvironment>(view.environment);
  const [clientId, setClientId] = useState(view.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [itemId, setItemId] = useState(view.settings.invoice_item_id ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setEnvironment(view.environment), [view.environment]);
  const locked = Boolean(view.connected_at);
  const save = useMutation({
    mutationFn: async () => {
      const attributes: Record<string, unknown> = {};
      if (environment !== view.environment) attributes.environment = environment;
      if (clientId.trim() !== (view.client_id ?? '')) attributes.client_id = clientId.trim();
      if (secret) attributes.client_secret = secret;
      if (view.vendor === 'quickbooks' && itemId.trim() && itemId.trim() !== view.settings.invoice_item_id) {
        attributes.settings = { invoice_item_id: itemId.trim() };
      }
      if (view.vendor === 'docusign') {
        await api.patch('/esignature/config/', { data: { type: 'config', attributes } });
      } else {
        await api.patch('/vendors/connections/quickbooks/', attributes);
      }
    },
    onMutate: () => setError(null),
    onSuccess: () => {
      setSecret('');
      showToast({ message: 'Saved.', kind: 'success' });
      void queryClient.invalidateQueries({ queryKey: keys.all });
    },
    onError: (e) =>
      setError(
        view.vendor === 'docusign'
          ? message(e, 'Failed to store E-Signature config, please try again later.')
          : message(e, 'We’re sorry, but we were unable to save your changes.'),
      ),
  });
  return (
    <Card withBorder padding="lg" component="form" onSubmit={(e) => (e.preventDefault(), save.mutate())}>
      <Title order={3} mb="sm">
        App credentials
      </Title>
      <Stack gap="sm" maw={520}>
        <div>
          <Text size="sm" fw={500} mb={4} id={`${view.vendor}-environment`}>
            Environment
          </Text>
          <SegmentedControl
            aria-labelledby={`${view.vendor}-environment`}
            value={environment}
            onChange={(v) => setEnvironment(v as VendorEnvironment)}
            disabled={locked}
            data={ENVIRONMENTS.map((value) => ({ value, label: ENVIRONMENT_LABELS[value] }))}
          />
          {locked ? (
            <Text size="xs" c="dimmed" mt={4}>
              Disconnect to switch between sandbox and production or change the app.
            </Text>
          ) : null}
        </div>
        <TextInput
          label={CLIENT_ID_LABEL[view.vendor]}
          value={clientId}
          onChange={(e) => setClientId(e.currentTarget.value)}
          disabled={locked}
          maxLength={200}
        />
        <PasswordInput
          label="Client secret"
          description={view.client_secret_set ? 'A secret is stored; enter a new one to replace it.' : undefined}
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
          disabled={locked}
          maxLength={500}
        />
        {view.vendor === 'quickbooks' ? (
          <TextInput
            label="Item invoiced"
            description="The QuickBooks product or service an invoice line sells (its id); Services when empty."
            value={itemId}
            onChange={(e) => setItemId(e.currentTarget.value)}
            maxLength={20}
          />
        ) : null}
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function InvoicesCard({ view }: { view: ConnectionView }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const invoices = useQuery({
    queryKey: keys.invoices,
    queryFn: () => api.get<{ results: InvoiceRecord[] }>('/vendors/quickbooks/invoices/'),
  });
  const after = () => queryClient.invalidateQueries({ queryKey: keys.all });
  const sync = useMutation({
    mutationFn: () => api.post<{ queued: number; sent: number; failed: number }>('/vendors/quickbooks/sync'),
    onSuccess: (r) => {
      showToast({ message: `${r.sent} sent, ${r.failed} failed.`, kind: r.failed ? 'error' : 'success' });
      void after();
    },
    onError: (e) => showToast({ message: message(e, 'The sync failed. Please try again.'), kind: 'error' }),
  });
  const retry = useMutation({
    mutationFn: (id: number) => api.post<InvoiceRecord>(`/vendors/quickbooks/invoices/${id}/retry`),
    onSettled: () => void after(),
    onError: (e) => showToast({ message: message(e, 'The retry failed. Please try again.'), kind: 'error' }),
  });
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={3}>Invoices for issued policies</Title>
        <Button variant="light" onClick={() => sync.mutate()} loading={sync.isPending} disabled={!view.connected_at}>
          Sync now
        </Button>
      </Group>
      {invoices.isPending ? (
        <LoadingState label="Loading invoices" />
      ) : invoices.isError ? (
        <ErrorState error={invoices.error} onRetry={() => void invoices.refetch()} />
      ) : invoices.data.results.length === 0 ? (
        <EmptyState title="No invoices yet" description="Each policy issued while QuickBooks is connected gets one." />
      ) : (
        <Table aria-label="Invoices" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Policy</Table.Th>
              <Table.Th>Customer</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Invoice number</Table.Th>
              <Table.Th>Sent</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoices.data.results.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{row.policy_number}</Table.Td>
                <Table.Td>{row.customer_name}</Table.Td>
                <Table.Td ta="right">{row.amount}</Table.Td>
                <Table.Td>
                  <Text size="sm">{INVOICE_STATUS_LABELS[row.status]}</Text>
                  {row.last_error ? (
                    <Text size="xs" c="red">
                      {row.last_error}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{row.invoice_doc_number ?? '—'}</Table.Td>
                <Table.Td>{row.sent_at ? when(row.sent_at) : '—'}</Table.Td>
                <Table.Td>
                  {row.status === 'failed' ? (
                    <Button size="xs" variant="light" onClick={() => retry.mutate(row.id)} loading={retry.isPending}>
                      Retry
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

const readBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

function EnvelopesCard({ view }: { view: ConnectionView }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [quoteNumber, setQuoteNumber] = useState('');
  const [signerName, setSignerName] = useState('');
  const [signerEmail, setSignerEmail] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const envelopes = useQuery({
    queryKey: keys.envelopes,
    queryFn: () => api.get<{ results: EnvelopeRecord[] }>('/vendors/docusign/envelopes/'),
  });
  const send = useMutation({
    mutationFn: async () => {
      if (!file) throw new Error('Choose the quote document to send.');
      await api.post('/vendors/docusign/envelopes/', {
        quote_number: quoteNumber.trim(),
        document_name: file.name,
        document_base64: await readBase64(file),
        signer_name: signerName.trim(),
        signer_email: signerEmail.trim(),
      });
    },
    onMutate: () => setError(null),
    onSuccess: () => {
      showToast({ message: 'Sent for signature.', kind: 'success' });
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: keys.all });
    },
    onError: (e) => {
      setError(message(e, 'The envelope could not be sent. Please try again.'));
      void queryClient.invalidateQueries({ queryKey: keys.all });
    },
  });
  return (
    <Card withBorder padding="lg">
      <Title order={3} mb="sm">
        Quote documents sent for signature
      </Title>
      {view.connected_at ? (
        <Stack gap="sm" maw={520} mb="md" component="form" onSubmit={(e) => (e.preventDefault(), send.mutate())}>
          <TextInput
            label="Quote number"
            required
            value={quoteNumber}
            onChange={(e) => setQuoteNumber(e.currentTarget.value)}
            maxLength={50}
          />
          <TextInput
            label="Signer name"
            required
            value={signerName}
            onChange={(e) => setSignerName(e.currentTarget.value)}
            maxLength={100}
          />
          <TextInput
            label="Signer e-mail"
            required
            type="email"
            value={signerEmail}
            onChange={(e) => setSignerEmail(e.currentTarget.value)}
            maxLength={100}
          />
          <FileInput
            label="Quote document"
            required
            accept=".pdf,.docx,.doc,.txt,.html"
            value={file}
            onChange={setFile}
            placeholder="Choose a PDF or Word file"
          />
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={send.isPending}>
              Send for signature
            </Button>
          </Group>
        </Stack>
      ) : null}
      {envelopes.isPending ? (
        <LoadingState label="Loading envelopes" />
      ) : envelopes.isError ? (
        <ErrorState error={envelopes.error} onRetry={() => void envelopes.refetch()} />
      ) : envelopes.data.results.length === 0 ? (
        <EmptyState title="No envelopes yet" />
      ) : (
        <Table aria-label="Envelopes" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Quote</Table.Th>
              <Table.Th>Document</Table.Th>
              <Table.Th>Signer</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Sent</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {envelopes.data.results.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{row.quote_number}</Table.Td>
                <Table.Td>{row.document_name}</Table.Td>
                <Table.Td>
                  {row.signer_name} ({row.signer_email})
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{ENVELOPE_STATUS_LABELS[row.status] ?? 'Sent'}</Text>
                  {row.last_error ? (
                    <Text size="xs" c="red">
                      {row.last_error}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{row.sent_at ? when(row.sent_at) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

export const QuickBooksPage = () => <VendorPage vendor="quickbooks" />;
export const DocuSignPage = () => <VendorPage vendor="docusign" />;
export default QuickBooksPage;
