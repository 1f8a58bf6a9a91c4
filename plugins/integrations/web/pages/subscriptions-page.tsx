import { Anchor, Button, Group, Modal, MultiSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import IconWebhook from '@tabler/icons-react/icons/IconWebhook';
import {
  ConfirmButton,
  EmptyState,
  ErrorState,
  LoadingState,
  PageHeader,
  StatusBadge,
  TOAST_DURATIONS,
  useApiClient,
  useCan,
  useHostServices,
} from '@atrium/sdk';
import { firstDetail, keys, useSubscriptions } from '../api.js';
import { SecretModal } from '../components/secret-modal.js';
import { EVENT_PREFIXES, formatDate, prefixLabel, subscriptionStatusLabels } from '../labels.js';
import { subscriptionMessagesRoute } from '../routes.js';

export const SUBSCRIPTIONS_FETCH_ERROR =
  'An error occurred while fetching subscriptions. Please refresh the page and try again.';
const CREATE_ERROR = 'An error occurred while creating subscription. Please try again.';
const DELETE_ERROR = 'An error occurred while deleting subscription. Please try again.';
const CREATED =
  'Subscription creation started. It might take a few minutes for it to appear in the subscriptions list.';

/** Webhook subscriptions: the list, a new subscription, delete; each opens its message log. */
export default function SubscriptionsPage() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const list = useSubscriptions();
  const canCreate = useCan('integrations:subscription', 'create').allowed;
  const canDelete = useCan('integrations:subscription', 'delete').allowed;
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const remove = async (id: string) => {
    try {
      await api.delete(`/events/subscriptions/${id}`, { jsonApi: true });
      services.showToast({ message: 'Subscription deleted.', kind: 'success' });
    } catch (error) {
      services.showToast({ message: firstDetail(error, DELETE_ERROR), kind: 'error' });
    }
    await queryClient.invalidateQueries({ queryKey: keys.subscriptions });
  };

  return (
    <Stack>
      <PageHeader
        title="Subscriptions"
        icon={IconWebhook}
        description="Webhooks: each subscription receives the events of the modules it names, signed per Standard Webhooks."
        actions={canCreate && <Button onClick={() => setCreating(true)}>New subscription</Button>}
      />
      {list.isPending ? (
        <LoadingState label="Loading subscriptions" />
      ) : list.isError ? (
        <ErrorState error={new Error(SUBSCRIPTIONS_FETCH_ERROR)} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No subscriptions yet" description="Create one to send events to another system." />
      ) : (
        <Table aria-label="Subscriptions" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>URL</Table.Th>
              <Table.Th>Events</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Anchor component={Link} to={subscriptionMessagesRoute.link({ subscriptionId: s.id })}>
                    {s.url}
                  </Anchor>
                  {s.description && (
                    <Text size="xs" c="dimmed">
                      {s.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{s.events.map(prefixLabel).join(', ')}</Table.Td>
                <Table.Td>
                  <StatusBadge labels={subscriptionStatusLabels} value={s.status} />
                </Table.Td>
                <Table.Td>{formatDate(s.date_created)}</Table.Td>
                <Table.Td>
                  {canDelete && (
                    <ConfirmButton
                      label={`Delete the subscription to ${s.url}? Its message log is deleted too.`}
                      verb="Delete"
                      color="red"
                      size="xs"
                      ariaLabel={`Delete subscription ${s.url}`}
                      onConfirm={() => remove(s.id)}
                    >
                      Delete
                    </ConfirmButton>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <NewSubscription
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(newSecret) => {
          setCreating(false);
          setSecret(newSecret);
          services.showToast({ message: CREATED, kind: 'success', duration: TOAST_DURATIONS.subscription });
          void queryClient.invalidateQueries({ queryKey: keys.subscriptions });
        }}
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}

function NewSubscription({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose(): void;
  onCreated(secret: string): void;
}) {
  const api = useApiClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.post<{ meta: { secret: string } }>(
        '/events/subscriptions',
        { data: { type: 'subscription', attributes: { url, events, description } } },
        { jsonApi: true },
      ),
    onSuccess: (body) => {
      setUrl('');
      setEvents(['*']);
      setDescription('');
      onCreated(body.meta.secret);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Modal opened={opened} onClose={onClose} title="New subscription" size="lg">
      <form onSubmit={submit} aria-label="New subscription">
        <Stack>
          <TextInput
            label="URL"
            placeholder="https://example.com/webhooks"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            required
          />
          <MultiSelect
            label="Events"
            description="The modules whose events this subscription receives."
            data={EVENT_PREFIXES}
            value={events}
            onChange={setEvents}
            required
          />
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          {create.isError && (
            <Text c="red" role="alert">
              {firstDetail(create.error, CREATE_ERROR)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={events.length === 0}>
              Create subscription
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
