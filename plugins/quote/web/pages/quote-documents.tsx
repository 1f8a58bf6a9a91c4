import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate, useApiClient, useCan, useHostServices, type ApiClient } from '@atrium/sdk';

/** A quote document as `GET /quote/{number}/documents/` answers it (JSON:API, docs/quote.md "Documents"). */
interface QuoteDocumentResource {
  type: 'quote-document';
  id: string;
  attributes: {
    name: string;
    description: string;
    document: {
      id: number;
      title: string;
      page_count: number;
      created_at: string;
      created_by: string;
      pdf_url: string;
      email_state: 'queued' | 'sending' | 'sent' | 'failed' | null;
      email_note: string | null;
      emailed_to: string[];
      emailed_at: string | null;
    } | null;
  };
}
interface QuoteDocumentList {
  data: QuoteDocumentResource[];
  meta: { mail_configured: boolean; insured_email: string | null };
}
type Made = QuoteDocumentResource['attributes']['document'];

const q = (n: string) => encodeURIComponent(n);
const documentsKey = (number: string) => ['quote', number, 'documents'] as const;
const listDocuments = (api: ApiClient, number: string) =>
  api.get<QuoteDocumentList>(`/quote/${q(number)}/documents/`, { jsonApi: true });
const makeDocument = (api: ApiClient, number: string, name: string, email: string | null) =>
  api.post<{ data: QuoteDocumentResource }>(
    `/quote/${q(number)}/documents/`,
    { data: { type: 'quote-document', attributes: { name, email } } },
    { jsonApi: true },
  );

/** The server's own message of a failed call (JSON:API errors name the field). */
function messageOf(error: unknown): string {
  const e = error as { errors?: { detail?: string }[]; message?: string } | null;
  return e?.errors?.[0]?.detail ?? e?.message ?? 'The request failed.';
}

/** Where the last e-mail of a quote document is, in words (the production documents page's wording). */
function emailWords(doc: Made): string {
  if (!doc || doc.email_state === null) return 'Not e-mailed';
  const to = doc.emailed_to.join(', ');
  if (doc.email_state === 'sent') return `Sent to ${to}`;
  if (doc.email_state === 'failed') return `Not sent to ${to}: ${doc.email_note ?? 'the mail server refused it'}`;
  // Queued or sending; without a mail server the outbox says so.
  return doc.email_note ? `Waiting to send to ${to} (${doc.email_note})` : `Sending to ${to}`;
}

/**
 * The quote's documents (the documents module's quote documents, such as the Quote summary): shown to
 * those who read the quote and production documents; "E-mail…" for those who may change the quote
 * (agents, agencies, underwriters) makes the document from the quote as it is now and e-mails it
 * through the platform mail service, to the insured's address when the insured has one.
 */
export function QuoteDocumentsButton({ number }: { number: string }) {
  const mayRead = useCan('quote:quote', 'read').allowed;
  // The documents module answers this permission only when it is installed.
  const documentsInstalled = useCan('documents:production-document', 'read').allowed;
  const [open, setOpen] = useState(false);
  if (!mayRead || !documentsInstalled) return null;
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Documents
      </Button>
      {open && <QuoteDocumentsDialog number={number} onClose={() => setOpen(false)} />}
    </>
  );
}

function QuoteDocumentsDialog({ number, onClose }: { number: string; onClose: () => void }) {
  const api = useApiClient();
  const mayUpdate = useCan('quote:quote', 'update').allowed;
  const [mailing, setMailing] = useState<QuoteDocumentResource | null>(null);
  const list = useQuery({
    queryKey: documentsKey(number),
    queryFn: () => listDocuments(api, number),
    // While a mail is on its way, look again every 2 s.
    refetchInterval: (query) =>
      query.state.data?.data.some((d) => ['queued', 'sending'].includes(d.attributes.document?.email_state ?? ''))
        ? 2000
        : false,
  });
  const openPdf = useMutation({
    mutationFn: async (resource: QuoteDocumentResource) => {
      const doc = resource.attributes.document;
      if (!doc) return;
      const { blob } = await api.getBlob(doc.pdf_url.replace(/^\/api/, ''));
      window.open(URL.createObjectURL(blob), '_blank', 'noopener');
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Documents of quote ${number}`} size="xl">
      <Stack>
        {list.error && <Alert color="red">{messageOf(list.error)}</Alert>}
        {list.data && list.data.data.length === 0 && <Text c="dimmed">No quote documents are published yet.</Text>}
        {list.data && !list.data.meta.mail_configured && (
          <Text size="xs" c="dimmed">
            No mail server is configured: e-mails wait in the outbox until one is.
          </Text>
        )}
        {list.data && list.data.data.length > 0 && (
          <Table aria-label="Quote documents">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Document</Table.Th>
                <Table.Th>Last made</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((d) => {
                const doc = d.attributes.document;
                return (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Text size="sm">{d.attributes.name}</Text>
                      <Text size="xs" c="dimmed">
                        {d.attributes.description}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {doc ? `${formatDate(doc.created_at)} by ${doc.created_by}` : 'Not made yet'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{emailWords(doc)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        {doc && (
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Open PDF: ${d.attributes.name}`}
                            loading={openPdf.isPending}
                            onClick={() => openPdf.mutate(d)}
                          >
                            Open PDF
                          </Button>
                        )}
                        {mayUpdate && (
                          <Button size="xs" aria-label={`E-mail: ${d.attributes.name}`} onClick={() => setMailing(d)}>
                            E-mail…
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {openPdf.error && <Alert color="red">{messageOf(openPdf.error)}</Alert>}
      </Stack>
      {mailing && list.data && (
        <EmailDialog
          number={number}
          name={mailing.attributes.name}
          defaultTo={list.data.meta.insured_email ?? ''}
          onClose={() => setMailing(null)}
        />
      )}
    </Modal>
  );
}

/** The recipient (the insured's address when known); the server makes the document now and checks the address. */
function EmailDialog({
  number,
  name,
  defaultTo,
  onClose,
}: {
  number: string;
  name: string;
  defaultTo: string;
  onClose: () => void;
}) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [to, setTo] = useState(defaultTo);
  const send = useMutation({
    mutationFn: () => makeDocument(api, number, name, to.trim()),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: documentsKey(number) });
      showToast({ message: `E-mail to ${to.trim()} queued.`, kind: 'success' });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={`E-mail ${name}`}>
      <Stack>
        <TextInput
          label="To"
          description={defaultTo ? 'The insured’s address.' : 'The insured has no e-mail address on file.'}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          data-autofocus
        />
        <Text size="xs" c="dimmed">
          The {name} is made from the quote as it is now, and its PDF is attached.
        </Text>
        {send.error && <Alert color="red">{messageOf(send.error)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={send.isPending} disabled={to.trim() === ''} onClick={() => send.mutate()}>
            Send
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
