import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ConfirmButton,
  DataTable,
  EmptyState,
  ErrorAlert,
  formatDateTime,
  QueryState,
  useApiClient,
  useHostServices,
} from '@atrium/sdk';
import {
  attachmentPath,
  closeTicket,
  listTickets,
  ticketKeys,
  type SupportTicket,
  type TicketScope,
  type TicketStatusFilter,
} from '../support-api.js';

const MAIL_LABELS: Record<string, string> = {
  queued: 'Waiting to be sent',
  sending: 'Sending',
  sent: 'Sent to the support desk',
  failed: 'Not sent',
};

/** Opens an image with the caller's token (a plain link would not carry it). */
function AttachmentLink({ ticket, file }: { ticket: SupportTicket; file: SupportTicket['attachments'][number] }) {
  const api = useApiClient();
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      onClick={async () => {
        const { blob } = await api.getBlob(attachmentPath(ticket.id, file.id));
        window.open(URL.createObjectURL(blob), '_blank', 'noopener');
      }}
    >
      {file.filename}
    </Anchor>
  );
}

/** Support tickets as a table: subject and description, critical flag, images, mail status, close. */
export function TicketsTable({
  scope,
  status,
  showSubmitter,
}: {
  scope: TicketScope;
  status: TicketStatusFilter;
  showSubmitter?: boolean;
}) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const tickets = useQuery({
    queryKey: ticketKeys.list(scope, status),
    queryFn: ({ signal }) => listTickets(api, scope, status, signal),
  });
  return (
    <Stack gap="sm">
      {problem ? <ErrorAlert error={problem} /> : null}
      <QueryState
        query={tickets}
        isEmpty={(d) => d.results.length === 0}
        empty={
          <EmptyState
            title={status === 'open' ? 'No outstanding tickets.' : 'No tickets.'}
            description="Submit a ticket from Help → Submit a Support Ticket."
          />
        }
      >
        {(data) => (
          <DataTable label="Support tickets">
            <thead>
              <tr>
                <th>Ticket</th>
                <th>Subject</th>
                {showSubmitter ? <th>Submitted by</th> : null}
                <th>Submitted</th>
                <th>Images</th>
                <th>E-mail</th>
                <th>Status</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {data.results.map((t) => (
                <tr key={t.id}>
                  <td>{t.id}</td>
                  <td>
                    <Stack gap={2}>
                      <Group gap={6}>
                        <Text size="sm" fw={600}>
                          {t.subject}
                        </Text>
                        {t.critical ? (
                          <Badge color="red" size="sm">
                            Critical
                          </Badge>
                        ) : null}
                      </Group>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {t.description}
                      </Text>
                    </Stack>
                  </td>
                  {showSubmitter ? <td>{t.submitted_by.name}</td> : null}
                  <td>{formatDateTime(t.created_at)}</td>
                  <td>
                    <Stack gap={2}>
                      {t.attachments.length === 0 ? (
                        <Text size="sm">–</Text>
                      ) : (
                        t.attachments.map((f) => <AttachmentLink key={f.id} ticket={t} file={f} />)
                      )}
                    </Stack>
                  </td>
                  <td>
                    <Text size="sm">{t.mail ? (MAIL_LABELS[t.mail.status] ?? t.mail.status) : '–'}</Text>
                    {t.mail?.note ? (
                      <Text size="xs" c="dimmed">
                        {t.mail.note}
                      </Text>
                    ) : null}
                  </td>
                  <td>
                    <Badge variant="light" color={t.status === 'open' ? 'blue' : 'gray'}>
                      {t.status === 'open' ? 'Outstanding' : 'Closed'}
                    </Badge>
                  </td>
                  <td>
                    {t.status === 'open' ? (
                      <ConfirmButton
                        label="ticket"
                        verb="close"
                        size="xs"
                        ariaLabel={`Close ticket ${t.id}`}
                        onConfirm={async () => {
                          setProblem(null);
                          try {
                            await closeTicket(api, t.id);
                            await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
                            showToast({ message: `Ticket ${t.id} closed.`, kind: 'success' });
                          } catch (error) {
                            setProblem(error);
                          }
                        }}
                      >
                        Close
                      </ConfirmButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </QueryState>
    </Stack>
  );
}
