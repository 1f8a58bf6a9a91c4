import { ActionIcon, Alert, Badge, Button, Group, Loader, Stack, Switch, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { errorText } from '../scenarios/error-text.js';
import RateTableEditor from './rate-table-editor.js';
import { useRateTableActions, useRateTables, type RateTableScope } from './rate-tables-api.js';

export interface RateTablesPanelProps {
  productId: number;
  versionId: number;
  riskTypeId: number;
  readOnly: boolean;
}

/**
 * The rate tables of a risk type in a product version: the list (name, label, rows, validity) with
 * create, open, delete, restore and reorder, and the table editor when one is open. Everything is
 * read-only unless the version is a draft (`readOnly`); the server refuses such writes anyway.
 */
export default function RateTablesPanel({ productId, versionId, riskTypeId, readOnly }: RateTablesPanelProps) {
  const scope: RateTableScope = { productId, versionId, riskTypeId };
  const [open, setOpen] = useState<number | 'new' | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tables = useRateTables(scope, showDeleted);
  const actions = useRateTableActions(scope);

  if (open !== null)
    return (
      <RateTableEditor
        scope={scope}
        tableId={open === 'new' ? null : open}
        readOnly={readOnly}
        onClose={() => setOpen(null)}
        onCreated={(id) => setOpen(id)}
      />
    );

  const run = (action: Promise<unknown>) => {
    setError(null);
    action.catch((failure: unknown) => setError(errorText(failure)));
  };
  const live = (tables.data ?? []).filter((t) => !t.deleted);
  const move = (index: number, by: -1 | 1) => {
    const ids = live.map((t) => t.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    run(actions.reorder.mutateAsync(ids));
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Switch
          label="Show deleted"
          checked={showDeleted}
          onChange={(event) => setShowDeleted(event.currentTarget.checked)}
        />
        {!readOnly && <Button onClick={() => setOpen('new')}>New rate table</Button>}
      </Group>
      {error && (
        <Alert color="red" withCloseButton onClose={() => setError(null)} style={{ whiteSpace: 'pre-line' }}>
          {error}
        </Alert>
      )}
      {tables.isPending && <Loader size="sm" aria-label="Loading rate tables" />}
      {tables.isError && <Alert color="red">{errorText(tables.error)}</Alert>}
      {tables.data && tables.data.length === 0 && <Text c="dimmed">This risk type has no rate tables.</Text>}
      {tables.data && tables.data.length > 0 && (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label="Rate tables" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Label</Table.Th>
                <Table.Th>Rows</Table.Th>
                <Table.Th>Validity</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tables.data.map((table) => {
                const index = live.indexOf(table);
                return (
                  <Table.Tr key={table.id} style={table.deleted ? { opacity: 0.6 } : undefined}>
                    <Table.Td>
                      {table.deleted ? (
                        table.name
                      ) : (
                        <Button variant="subtle" size="compact-sm" onClick={() => setOpen(table.id)}>
                          {table.name}
                        </Button>
                      )}
                      {table.inheritanceStatus && table.inheritanceStatus !== 'own' && (
                        <Badge ml="xs" size="xs" variant="light">
                          {table.inheritanceStatus}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{table.label}</Table.Td>
                    <Table.Td>{table.rowsCount}</Table.Td>
                    <Table.Td>
                      <Badge color={table.validityState === 'valid' ? 'green' : 'orange'} variant="light">
                        {table.validityState || 'unknown'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {!readOnly && table.deleted && (
                        <Button
                          size="compact-xs"
                          variant="light"
                          onClick={() => run(actions.restore.mutateAsync(table.id))}
                        >
                          Restore
                        </Button>
                      )}
                      {!readOnly && !table.deleted && (
                        <Group gap={4}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Move ${table.name} up`}
                            disabled={index <= 0}
                            onClick={() => move(index, -1)}
                          >
                            ↑
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Move ${table.name} down`}
                            disabled={index >= live.length - 1}
                            onClick={() => move(index, 1)}
                          >
                            ↓
                          </ActionIcon>
                          <Button
                            size="compact-xs"
                            color="red"
                            variant="subtle"
                            onClick={() => run(actions.remove.mutateAsync(table.id))}
                          >
                            Delete
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
