import { Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from '@atrium/sdk';
import type { Flat } from '../api/jsonapi.js';

/** A titled table of a claim's records, with loading, empty and error states. */
export function SimpleList({
  label,
  query,
  columns,
}: {
  label: string;
  query: { data?: { items: Flat[] }; error: unknown; isPending: boolean };
  columns: [string, (row: Flat) => ReactNode][];
}) {
  return (
    <Stack gap="xs">
      <Title order={4}>{label}</Title>
      <ErrorAlert error={query.error} />
      {query.isPending ? <Text>Loading…</Text> : null}
      {query.data && query.data.items.length === 0 ? (
        <Text c="dimmed" size="sm">
          None.
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
