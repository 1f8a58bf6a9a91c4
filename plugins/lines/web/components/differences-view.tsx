import { Badge, Card, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useDifferences, type ChangeGroup, type FieldChange } from '../catalog/product-views-api.js';
import { ErrorAlert } from './shared.js';

/** A value as one line: attributes as `key: value`, option changes as `+added −removed`. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(showValue).join(', ');
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.added) && Array.isArray(record.removed) && Object.keys(record).length === 2) {
    const parts = [...record.added.map((v) => `+${String(v)}`), ...record.removed.map((v) => `−${String(v)}`)];
    return parts.length ? parts.join(' ') : '—';
  }
  return Object.entries(record)
    .map(([key, v]) => `${key}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('; ');
}

function ChangesTable({ label, rows, withOptions }: { label: string; rows: FieldChange[]; withOptions: boolean }) {
  if (!rows.length) return null;
  return (
    <Table aria-label={label} withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{label.endsWith('items') ? 'Item' : 'Field'}</Table.Th>
          <Table.Th>Old value</Table.Th>
          <Table.Th>New value</Table.Th>
          {withOptions && <Table.Th>Options</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((f, i) => (
          <Table.Tr key={`${f.name}-${i}`}>
            <Table.Td>{f.name}</Table.Td>
            <Table.Td>{showValue(f.oldValue)}</Table.Td>
            <Table.Td>{showValue(f.newValue)}</Table.Td>
            {withOptions && <Table.Td>{showValue(f.options)}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Group_({ kind, group }: { kind: 'Added' | 'Removed' | 'Changed'; group: ChangeGroup }) {
  if (!group.fields.length && !group.items.length) return null;
  return (
    <Stack gap={4}>
      <Badge color={kind === 'Added' ? 'green' : kind === 'Removed' ? 'red' : 'blue'} variant="light">
        {kind}
      </Badge>
      <ChangesTable label={`${kind} fields`} rows={group.fields} withOptions />
      <ChangesTable label={`${kind} items`} rows={group.items} withOptions={false} />
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
            {d.label ?? d.riskType}
            {d.product ? ` (${d.product})` : ''}
            {d.status && d.status !== 'changed' ? ` — ${d.status}` : ''}
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
