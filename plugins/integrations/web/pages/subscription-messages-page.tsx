import { Anchor, Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import IconWebhook from '@tabler/icons-react/icons/IconWebhook';
import {
  EmptyState,
  ErrorState,
  LoadingState,
  PageHeader,
  StatusBadge,
  useApiClient,
  useCan,
  useHostServices,
} from '@atrium/sdk';
import { firstDetail, keys, useMessages, useSubscription, type Message } from '../api.js';
import { SecretModal } from '../components/secret-modal.js';
import { formatDate, messageStatusLabels, prefixLabel, subscriptionStatusLabels } from '../labels.js';
import { subscriptionsRoute } from '../routes.js';

const MESSAGES_FETCH_ERROR = 'An error occurred while fetching messages. Please try again in some time.';

/** One subscription's message log: every message with each attempt; Resend, Send test event, the secret. */
export default function SubscriptionMessagesPage() {
  const { subscriptionId = '' } = useParams();
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const subscription = useSubscription(subscriptionId);
  const messages = useMessages(subscriptionId);
  const canUpdate = useCan('integrations:subscription', 'update').allowed;
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  const act = async (path: string, done: string, fallback: string) => {
    try {
      await api.post(`/events/subscriptions/${subscriptionId}${path}`, undefined, { jsonApi: true });
      services.showToast({ message: done, kind: 'success' });
    } catch (error) {
      services.showToast({ message: firstDetail(error, fallback), kind: 'error' });
    }
    await queryClient.invalidateQueries({ queryKey: keys.messages(subscriptionId) });
  };
  const showSecret = async () => {
    try {
      const body = await api.get<{ data: { attributes: { secret: string } } }>(
        `/events/subscriptions/${subscriptionId}/secret`,
        { jsonApi: true },
      );
      setSecret(body.data.attributes.secret);
    } catch (error) {
      services.showToast({
        message: firstDetail(error, 'The secret could not be loaded. Please try again.'),
        kind: 'error',
      });
    }
  };

  const s = subscription.data;
  return (
    <Stack>
      <Anchor component={Link} to={subscriptionsRoute.link({})} size="sm">
        ← Subscriptions
      </Anchor>
      <PageHeader
        title={s ? s.url : 'Subscription'}
        icon={IconWebhook}
        description={s ? `Events: ${s.events.map(prefixLabel).join(', ')}` : undefined}
        actions={
          canUpdate &&
          s && (
            <>
              <Button variant="default" onClick={() => void showSecret()}>
                Show secret
              </Button>
              <Button
                disabled={s.status === 'disabled'}
                onClick={() =>
                  void act(
                    '/test',
                    'Test event queued.',
                    'An error occurred while sending the test event. Please try again.',
                  )
                }
              >
                Send test event
              </Button>
            </>
          )
        }
      />
      {s && (
        <Group gap="xs">
          <StatusBadge labels={subscriptionStatusLabels} value={s.status} />
          {s.disabled_reason && <Text size="sm">{s.disabled_reason}</Text>}
        </Group>
      )}
      {subscription.isError && <ErrorState error={subscription.error} />}
      {messages.isPending ? (
        <LoadingState label="Loading messages" />
      ) : messages.isError ? (
        <ErrorState error={new Error(MESSAGES_FETCH_ERROR)} onRetry={() => void messages.refetch()} />
      ) : messages.data.length === 0 ? (
        <EmptyState
          title="No messages yet"
          description="Events this subscription receives, and test events, appear here."
        />
      ) : (
        <Table aria-label="Messages">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>Next retry</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {messages.data.map((m) => (
              <Fragment key={m.id}>
                <Table.Tr>
                  <Table.Td>
                    {m.topic} {m.test && <Badge size="xs">Test</Badge>}
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge labels={messageStatusLabels} value={m.status} />
                  </Table.Td>
                  <Table.Td>{m.attempts}</Table.Td>
                  <Table.Td>{formatDate(m.next_attempt_at)}</Table.Td>
                  <Table.Td>{formatDate(m.date_created)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="subtle" onClick={() => setOpen(open === m.id ? null : m.id)}>
                        {open === m.id ? 'Hide attempts' : 'Show attempts'}
                      </Button>
                      {canUpdate && (m.status === 'failed' || m.status === 'succeeded') && (
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() =>
                            void act(
                              `/messages/${m.id}/resend`,
                              'Message queued to send again.',
                              'An error occurred while resending the message. Please try again.',
                            )
                          }
                        >
                          Resend
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
                {open === m.id && (
                  <Table.Tr>
                    <Table.Td colSpan={6}>
                      <Attempts message={m} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}

const TRIGGERS: Record<string, string> = { schedule: 'Scheduled', resend: 'Resend' };

function Attempts({ message }: { message: Message }) {
  return (
    <Stack gap="xs">
      {message.attempt_log.length === 0 ? (
        <Text size="sm">Not attempted yet.</Text>
      ) : (
        <Table aria-label="Attempts" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>Answer</Table.Th>
              <Table.Th>Latency</Table.Th>
              <Table.Th>Response</Table.Th>
              <Table.Th>Next retry</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {message.attempt_log.map((a) => (
              <Table.Tr key={a.attempt}>
                <Table.Td>
                  {a.attempt}{' '}
                  <Text span size="xs" c="dimmed">
                    {TRIGGERS[a.trigger] ?? a.trigger}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDate(a.attempted_at)}</Table.Td>
                <Table.Td>{a.status_code !== null ? `HTTP ${a.status_code}` : (a.error ?? 'No answer')}</Table.Td>
                <Table.Td>{a.latency_ms} ms</Table.Td>
                <Table.Td>
                  <Code>{a.response_excerpt || '–'}</Code>
                </Table.Td>
                <Table.Td>{formatDate(a.next_retry_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="sm" fw={500}>
        Payload
      </Text>
      <Code block>{JSON.stringify(message.payload, null, 2)}</Code>
    </Stack>
  );
}
