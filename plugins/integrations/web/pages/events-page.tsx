import { Accordion, Badge, Button, Code, Group, Select, Stack, Table, Tabs, Text } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import IconBolt from '@tabler/icons-react/icons/IconBolt';
import { EmptyState, ErrorState, LoadingState, PageHeader, useApiClient } from '@atrium/sdk';
import { keys, type CatalogueEntry, type OutboxEvent } from '../api.js';
import { formatDate, moduleLabel } from '../labels.js';

/** Events: the outbox as envelopes (newest first) and the topic catalogue with each JSON Schema. */
export default function EventsPage() {
  return (
    <Stack>
      <PageHeader
        title="Events"
        icon={IconBolt}
        description="Every module's events, written in the same transaction as the change they report."
      />
      <Tabs defaultValue="outbox" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="outbox">Recent events</Tabs.Tab>
          <Tabs.Tab value="catalogue">Topic catalogue</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="outbox" pt="md">
          <Outbox />
        </Tabs.Panel>
        <Tabs.Panel value="catalogue" pt="md">
          <Catalogue />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function useCatalogue() {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.catalogue,
    queryFn: async () => (await api.get<{ results: CatalogueEntry[] }>('/events/catalogue')).results,
    staleTime: 5 * 60_000,
  });
}

function Outbox() {
  const api = useApiClient();
  const catalogue = useCatalogue();
  const [module, setModule] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const events = useInfiniteQuery({
    queryKey: [...keys.outbox, module],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      api.get<{ results: OutboxEvent[]; next_before: number | null }>('/events/outbox', {
        query: { module: module ?? undefined, before: pageParam, page_size: 50 },
      }),
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  const modules = [...new Set((catalogue.data ?? []).map((e) => e.plugin))];
  const rows = events.data?.pages.flatMap((p) => p.results) ?? [];
  return (
    <Stack>
      <Select
        label="Module"
        placeholder="All modules"
        clearable
        w={240}
        data={modules.map((m) => ({ value: m, label: moduleLabel(m) }))}
        value={module}
        onChange={setModule}
      />
      {events.isPending ? (
        <LoadingState label="Loading events" />
      ) : events.isError ? (
        <ErrorState
          error={new Error('An error occurred while fetching events. Please refresh the page and try again.')}
          onRetry={() => void events.refetch()}
        />
      ) : rows.length === 0 ? (
        <EmptyState title="No events yet" />
      ) : (
        <>
          <Table aria-label="Events">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Topic</Table.Th>
                <Table.Th>Schema</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Fragment key={e.event_id}>
                  <Table.Tr>
                    <Table.Td>{e.topic}</Table.Td>
                    <Table.Td>
                      {e.schema_id}{' '}
                      <Badge size="xs" variant="light">
                        {e.version}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{e.triggering_user}</Table.Td>
                    <Table.Td>{formatDate(e.event_date)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => setOpen(open === e.event_id ? null : e.event_id)}
                      >
                        {open === e.event_id ? 'Hide envelope' : 'Envelope'}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                  {open === e.event_id && (
                    <Table.Tr>
                      <Table.Td colSpan={5}>
                        <Code block>
                          {JSON.stringify(
                            {
                              event_id: e.event_id,
                              event_date: e.event_date,
                              schema_id: e.schema_id,
                              version: e.version,
                              topic: e.topic,
                              triggering_user: e.triggering_user,
                              data: e.data,
                            },
                            null,
                            2,
                          )}
                        </Code>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
          {events.hasNextPage && (
            <Group>
              <Button variant="default" loading={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
                Older events
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

function Catalogue() {
  const catalogue = useCatalogue();
  if (catalogue.isPending) return <LoadingState label="Loading the topic catalogue" />;
  if (catalogue.isError) return <ErrorState error={catalogue.error} onRetry={() => void catalogue.refetch()} />;
  return (
    <Accordion variant="separated" aria-label="Topic catalogue">
      {catalogue.data.map((e) => (
        <Accordion.Item key={`${e.topic}@${e.version}`} value={`${e.topic}@${e.version}`}>
          <Accordion.Control>
            <Group gap="xs">
              <Text fw={500}>{e.topic}</Text>
              <Badge size="xs" variant="light">
                {e.schema_id} {e.version}
              </Badge>
              <Text size="sm" c="dimmed">
                {moduleLabel(e.plugin)} — {e.description}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Code block>{JSON.stringify(e.json_schema, null, 2)}</Code>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
