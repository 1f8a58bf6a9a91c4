import { Badge, Card, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useDifferences, type ChangeGroup } from '../catalog/product-views-api.js';
import { ErrorAlert } from './shared.js';

const show = (value: unknown) =>
  value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

function Group_({ kind, group }: { kind: 'Added' | 'Removed' | 'Changed'; group: ChangeGroup }) {
  if (!group.fields.length && !group.items.length) return null;
  return (
    <Stack gap={4}>
      <Badge color={kind === 'Added' ? 'green' : kind === 'Removed' ? 'red' : 'blue'} variant="light">
        {kind}
      </Badge>
      {group.fields.length > 0 && (
        <Table aria-label={`${kind} fields`} withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Old value</Table.Th>
              <Table.Th>New value</Table.Th>
              <Table.Th>Options</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {group.fields.map((f, i) => (
              <Table.Tr key={`${f.name}-${i}`}>
                <Table.Td>{f.name}</Table.Td>
                <Table.Td>{show(f.oldValue)}</Table.Td>
                <Table.Td>{show(f.newValue)}</Table.Td>
                <Table.Td>{show(f.options)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {group.items.length > 0 && (
        <Text size="sm">Items: {group.items.map((item) => item.name || show(item.detail)).join(', ')}</Text>
      )}
    </Stack>
  );
}

/** The product difference view: what this version changed against the previous one, per risk type. */
export function DifferencesView({ productId, versionId }: { productId: number; versionId: number }) {
  const [includeDescendants, setIncludeDescendants] = useState(false);
  const differences = useDifferences(productId, versionId, includeDescendants);
  return (
    <Stack>
      <Switch
        label="Include child products"
        checked={includeDescendants}
        onChange={(e) => setIncludeDescendants(e.currentTarget.checked)}
      />
      <ErrorAlert error={differences.error} />
      {differences.isSuccess && differences.data.length === 0 && (
        <Text c="dimmed">No differences against the previous version.</Text>
      )}
      {(differences.data ?? []).map((d, i) => (
        <Card key={`${d.product ?? ''}-${d.riskType}-${i}`} withBorder>
          <Title order={4}>
            {d.riskType}
            {d.product ? ` (${d.product})` : ''}
          </Title>
          <Stack gap="xs" mt="xs">
            <Group_ kind="Added" group={d.added} />
            <Group_ kind="Removed" group={d.removed} />
            <Group_ kind="Changed" group={d.changed} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
