import { Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert, LoadingState } from '@atrium/sdk';
import type { Flat } from '../api/jsonapi.js';

/**
 * A titled table of a claim's records with loading, empty and error states: a loading state while
 * the answer is on its way, "No {label}." only when it came back empty. `actions` sit beside the
 * title (an Add button).
 */
export function SimpleList({
  label,
  query,
  columns,
  actions,
}: {
  label: string;
  query: { data?: { items: Flat[] }; error: unknown; isPending: boolean };
  columns: [string, (row: Flat) => ReactNode][];
  actions?: ReactNode;
}) {
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>{label}</Title>
        {actions}
      </Group>
      <ErrorAlert error={query.error} />
      {query.isPending && !query.error ? <LoadingState label={`Loading ${label.toLowerCase()}`} /> : null}
      {query.data && query.data.items.length === 0 ? (
        <Text c="dimmed" size="sm">
          No {label.toLowerCase()}.
        </Text>
      ) : null}
      {query.data && query.data.items.length > 0 ? (
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map(([name]) => (
                <Table.Th key={name}>{name}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.items.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map(([name, cell]) => (
                  <Table.Td key={name}>{cell(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
