import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  emailDocument,
  listProductionDocuments,
  messageOf,
  productionKeys,
  setPrintState,
  type PrintState,
  type ProductionDocumentItem,
} from '../api.js';
import { documentsRoute } from '../routes.js';

const PAPER: Record<PrintState, string> = {
  not_printed: 'Not printed',
  queued: 'On the print queue',
  printed: 'Printed',
};
const FILTERS: { value: PrintState | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'queued', label: 'Print queue' },
  { value: 'printed', label: 'Printed' },
  { value: 'not_printed', label: 'Not printed' },
];

/** The e-mail column in words: never e-mailed, waiting, sent to whom, or why it is not sent. */
function emailWords(doc: ProductionDocumentItem): string {
  const to = doc.emailed_to.join(', ');
  switch (doc.email_state) {
    case null:
      return 'Not e-mailed';
    case 'sent':
      return `Sent to ${to}`;
    case 'failed':
      return `Not sent to ${to}: ${doc.email_note ?? 'the mail server refused it'}`;
    default:
      // Queued or sending; without a mail server the outbox says so (MAIL_NOT_CONFIGURED).
      return doc.email_note ? `Waiting to send to ${to} (${doc.email_note})` : `Sending to ${to}`;
  }
}

/** A document named for buttons and messages: its title and, when it has one, its record. */
const nameOf = (doc: ProductionDocumentItem) =>
  doc.record?.label ? `${doc.title} for ${doc.record.label}` : doc.title;

const splitAddresses = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/**
 * Production documents (docs/documents.md, "Print and e-mail"): every rendered document the caller
 * may read, newest first, with its paper state and its last e-mail. Those who may change documents
 * (`documents:production-document` `update`) put one on the print queue, mark it printed, print it
 * again or take it off the queue, and e-mail its PDF; others read. The print queue is a filter.
 */
export default function ProductionPage() {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canUpdate = useCan('documents:production-document', 'update').allowed;
  const [filter, setFilter] = useState<PrintState | 'all'>('all');
  const [mailing, setMailing] = useState<ProductionDocumentItem | null>(null);
  // One record's documents (the policy page's "Print or e-mail" opens them): ?record_type=&record_id=
  const [params, setParams] = useSearchParams();
  const record =
    params.get('record_type') && params.get('record_id')
      ? { type: params.get('record_type')!, id: params.get('record_id')! }
      : null;
  const docs = useQuery({
    queryKey: [...productionKeys.list(filter), record?.type ?? null, record?.id ?? null],
    queryFn: () => listProductionDocuments(api, filter, record),
    // A mail on its way changes state in the background: look again until none is.
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.email_state === 'queued' || d.email_state === 'sending') ? 2000 : false,
  });
  const move = useMutation({
    mutationFn: ({ doc, state }: { doc: ProductionDocumentItem; state: PrintState }) =>
      setPrintState(api, doc.id, state),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: productionKeys.all });
      showToast({ message: `${nameOf(saved)}: ${PAPER[saved.print_state].toLowerCase()}.`, kind: 'success' });
    },
    onError: (error) => showToast({ message: messageOf(error), kind: 'error' }),
  });

  const openPdf = async (doc: ProductionDocumentItem) => {
    try {
      const { blob } = await api.getBlob(`/documents/production-documents/${doc.id}/pdf/`);
      window.open(URL.createObjectURL(blob), '_blank', 'noopener');
    } catch (error) {
      showToast({ message: messageOf(error), kind: 'error' });
    }
  };

  const printButtons = (doc: ProductionDocumentItem) => {
    const button = (state: PrintState, label: string) => (
      <Button
        key={state}
        size="xs"
        variant="light"
        aria-label={`${label}: ${nameOf(doc)}`}
        loading={move.isPending && move.variables?.doc.id === doc.id && move.variables.state === state}
        onClick={() => move.mutate({ doc, state })}
      >
        {label}
      </Button>
    );
    if (doc.print_state === 'not_printed') return [button('queued', 'Add to print queue')];
    if (doc.print_state === 'queued')
      return [button('printed', 'Mark printed'), button('not_printed', 'Take off queue')];
    return [button('queued', 'Print again')];
  };

  return (
    <Stack>
      <Anchor component={Link} to={documentsRoute.link({})} size="sm">
        ← All documents
      </Anchor>
      <Title order={1}>Production documents</Title>
      <Text c="dimmed" size="sm">
        Documents rendered for policies, claims and quotes, newest first. Put a document on the print queue and mark it
        printed once it is on paper, or e-mail its PDF.
        {canUpdate ? '' : ' You may read these documents but not print or e-mail them.'}
      </Text>
      {record && (
        <Group gap="xs">
          <Text size="sm">Showing the documents of {docs.data?.[0]?.record?.label ?? `this ${record.type}`}.</Text>
          <Anchor component="button" size="sm" onClick={() => setParams({})}>
            Show all documents
          </Anchor>
        </Group>
      )}
      <SegmentedControl
        aria-label="Show"
        value={filter}
        onChange={(value) => setFilter(value as PrintState | 'all')}
        data={FILTERS}
        w="fit-content"
      />
      {docs.error ? (
        <Alert color="red">{messageOf(docs.error)}</Alert>
      ) : !docs.data ? (
        <Loader size="sm" role="status" aria-label="Loading production documents" />
      ) : docs.data.length === 0 ? (
        <Text c="dimmed">
          {filter === 'queued' ? 'The print queue is empty.' : 'No production documents here yet.'}
        </Text>
      ) : (
        <Table striped aria-label="Production documents">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Document</Table.Th>
              <Table.Th>For</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Paper</Table.Th>
              <Table.Th>E-mail</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {docs.data.map((doc) => (
              <Table.Tr key={doc.id}>
                <Table.Td>
                  {doc.title}
                  <Text size="xs" c="dimmed">
                    {doc.page_count === 1 ? '1 page' : `${doc.page_count} pages`}
                    {doc.forms.length > 0 ? ` · with ${doc.forms.join(', ')}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>{doc.record?.label ?? '—'}</Table.Td>
                <Table.Td>{doc.version_name}</Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={doc.print_state === 'printed' ? 'green' : doc.print_state === 'queued' ? 'blue' : 'gray'}
                  >
                    {PAPER[doc.print_state]}
                  </Badge>
                  {doc.print_state_by && (
                    <Text size="xs" c="dimmed">
                      by {doc.print_state_by}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{emailWords(doc)}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Open PDF: ${nameOf(doc)}`}
                      onClick={() => void openPdf(doc)}
                    >
                      Open PDF
                    </Button>
                    {canUpdate && printButtons(doc)}
                    {canUpdate && (
                      <Button
                        size="xs"
                        variant="light"
                        aria-label={`E-mail: ${nameOf(doc)}`}
                        onClick={() => setMailing(doc)}
                      >
                        E-mail…
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {mailing && <EmailDialog doc={mailing} onClose={() => setMailing(null)} />}
    </Stack>
  );
}

/** Compose: recipients (comma-separated), a subject (the document's title) and a message; the server checks them. */
function EmailDialog({ doc, onClose }: { doc: ProductionDocumentItem; onClose: () => void }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [to, setTo] = useState('');
  const [subject, setSubject] = useState(doc.title);
  const [message, setMessage] = useState(`Please find attached ${doc.title}.`);
  const send = useMutation({
    mutationFn: () => emailDocument(api, doc.id, { to: splitAddresses(to), subject, message }),
    onSuccess: async (mail) => {
      await queryClient.invalidateQueries({ queryKey: productionKeys.all });
      showToast({ message: `E-mail to ${mail.to.join(', ')} queued.`, kind: 'success' });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={`E-mail ${nameOf(doc)}`}>
      <Stack>
        <TextInput
          label="To"
          description="One or more addresses, separated by commas."
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          data-autofocus
        />
        <TextInput label="Subject" value={subject} onChange={(e) => setSubject(e.currentTarget.value)} />
        <Textarea
          label="Message"
          autosize
          minRows={3}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
        />
        <Text size="xs" c="dimmed">
          The PDF is attached.
        </Text>
        {send.error && <Alert color="red">{messageOf(send.error)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={send.isPending} disabled={splitAddresses(to).length === 0} onClick={() => send.mutate()}>
            Send
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
