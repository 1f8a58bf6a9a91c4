import { Badge, Button, Card, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useApiClient, useHostServices } from '@atrium/sdk';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { moveId } from '../catalog/reorder.js';
import {
  riskTypeWrites,
  useRiskItems,
  useRiskTypesChanged,
  type ItemLimit,
  type RiskItem,
} from '../catalog/risk-types-api.js';
import { ItemFormModal, LimitFormModal } from './item-form.js';
import { OrderButtons, useRowOrdering } from './orderable-rows.js';
import { ConfirmButton, ErrorAlert, InheritanceBadge, ServerMessage, useCanWrite } from './shared.js';
import { useWriteAction } from './use-write-action.js';

/** The Items tab: items in order (presence, type, fully earned) with their limits and deductibles. */
export function ItemsTab({
  productId,
  versionId,
  riskTypeId,
  readOnly,
}: {
  productId: number;
  versionId: number;
  riskTypeId: number;
  readOnly: boolean;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useRiskTypesChanged();
  const canCreate = useCanWrite(LINES_RESOURCES.item, 'create') && !readOnly;
  const canUpdate = useCanWrite(LINES_RESOURCES.item, 'update') && !readOnly;
  const canDelete = useCanWrite(LINES_RESOURCES.item, 'delete') && !readOnly;
  const [showDeleted, setShowDeleted] = useState(false);
  const items = useRiskItems(productId, versionId, riskTypeId, showDeleted);
  const [editing, setEditing] = useState<RiskItem | 'new' | null>(null);
  // The limit form: adding under an item (limit null) or editing one of its limits.
  const [limitForm, setLimitForm] = useState<{ item: RiskItem; limit: ItemLimit | null } | null>(null);
  const { message, act } = useWriteAction(changed);
  const list = items.data ?? [];
  const live = list.filter((i) => !i.deleted);

  const move = (from: number, to: number) =>
    act(
      () =>
        riskTypeWrites.reorderItems(
          api,
          productId,
          versionId,
          riskTypeId,
          moveId(
            live.map((i) => i.id),
            from,
            to,
          ),
        ),
      'Item order saved.',
    );
  const { rowProps } = useRowOrdering(move, !canUpdate);

  return (
    <Stack>
      <Group justify="space-between">
        <Switch
          label="Show deleted items"
          checked={showDeleted}
          onChange={(e) => setShowDeleted(e.currentTarget.checked)}
        />
        {canCreate && <Button onClick={() => setEditing('new')}>Add item</Button>}
      </Group>
      <ErrorAlert error={items.error} />
      <ServerMessage message={message} />
      {list.map((item) => {
        const index = live.indexOf(item);
        return (
          <Card key={item.id} withBorder {...(item.deleted ? {} : rowProps(index))} aria-label={`Item ${item.name}`}>
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs">
                {canUpdate && !item.deleted && (
                  <OrderButtons index={index} count={live.length} name={item.name} onMove={move} />
                )}
                <Text fw={600} td={item.deleted ? 'line-through' : undefined}>
                  {item.label} ({item.name})
                </Text>
                <Badge variant="light" size="sm">
                  {item.presence}
                </Badge>
                <Badge variant="light" size="sm" color="grape">
                  {item.type}
                </Badge>
                {item.fullyEarned && (
                  <Badge variant="light" size="sm" color="teal">
                    fully earned
                  </Badge>
                )}
                <InheritanceBadge status={item.inheritanceStatus} />
              </Group>
              <Group gap={4} wrap="nowrap">
                {canUpdate && !item.deleted && (
                  <Button size="xs" variant="subtle" aria-label={`Edit ${item.name}`} onClick={() => setEditing(item)}>
                    Edit
                  </Button>
                )}
                {canCreate && !item.deleted && (
                  <Button size="xs" variant="subtle" onClick={() => setLimitForm({ item, limit: null })}>
                    Add limit or deductible
                  </Button>
                )}
                {canDelete && !item.deleted && (
                  <ConfirmButton
                    label="item"
                    verb="delete"
                    color="red"
                    size="xs"
                    variant="subtle"
                    ariaLabel={`Delete ${item.name}`}
                    onConfirm={() =>
                      act(
                        () => riskTypeWrites.deleteItem(api, productId, versionId, riskTypeId, item.id),
                        `Item '${item.name}' deleted.`,
                      )
                    }
                  >
                    Delete
                  </ConfirmButton>
                )}
                {canCreate && item.deleted && (
                  <Button
                    size="xs"
                    variant="subtle"
                    onClick={() =>
                      act(
                        () => riskTypeWrites.restoreItem(api, productId, versionId, riskTypeId, item.id),
                        `Item '${item.name}' restored.`,
                      )
                    }
                  >
                    Restore
                  </Button>
                )}
              </Group>
            </Group>
            {item.limits.length > 0 && (
              <Table mt="xs" aria-label={`Limits and deductibles of ${item.name}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>Label</Table.Th>
                    <Table.Th>Default</Table.Th>
                    <Table.Th>Minimum</Table.Th>
                    <Table.Th>Maximum</Table.Th>
                    <Table.Th>Options</Table.Th>
                    {(canUpdate || canDelete) && !item.deleted && <Table.Th />}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {item.limits.map((limit) => (
                    <Table.Tr key={`${limit.kind}-${limit.id}`}>
                      <Table.Td>{limit.kind}</Table.Td>
                      <Table.Td>{limit.label || limit.name}</Table.Td>
                      <Table.Td>{limit.defaultValue ?? '—'}</Table.Td>
                      <Table.Td>{limit.minValue ?? '—'}</Table.Td>
                      <Table.Td>{limit.maxValue ?? '—'}</Table.Td>
                      <Table.Td>{limit.options.join(', ') || '—'}</Table.Td>
                      {(canUpdate || canDelete) && !item.deleted && (
                        <Table.Td>
                          {canUpdate && (
                            <Button
                              size="xs"
                              variant="subtle"
                              aria-label={`Edit ${limit.kind} ${limit.label || limit.name}`}
                              onClick={() => setLimitForm({ item, limit })}
                            >
                              Edit
                            </Button>
                          )}
                          {canDelete && (
                            <ConfirmButton
                              label={limit.kind}
                              verb="delete"
                              color="red"
                              size="xs"
                              variant="subtle"
                              ariaLabel={`Delete ${limit.kind} ${limit.label || limit.name}`}
                              onConfirm={() =>
                                act(
                                  () =>
                                    riskTypeWrites.deleteLimit(
                                      api,
                                      productId,
                                      versionId,
                                      riskTypeId,
                                      item.id,
                                      limit.id,
                                    ),
                                  `${limit.kind === 'deductible' ? 'Deductible' : 'Limit'} '${limit.label || limit.name}' deleted.`,
                                )
                              }
                            >
                              Delete
                            </ConfirmButton>
                          )}
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        );
      })}
      {items.isSuccess && list.length === 0 && <Text c="dimmed">No items.</Text>}
      <ItemFormModal
        opened={editing !== null}
        item={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSave={async (values) => {
          if (editing && editing !== 'new')
            await riskTypeWrites.updateItem(api, productId, versionId, riskTypeId, editing.id, values);
          else await riskTypeWrites.createItem(api, productId, versionId, riskTypeId, values);
          await changed();
          services.showToast({ message: `Item '${values.name}' saved.`, kind: 'success' });
          setEditing(null);
        }}
      />
      <LimitFormModal
        opened={limitForm !== null}
        itemName={limitForm?.item.name ?? ''}
        limit={limitForm?.limit ?? null}
        onClose={() => setLimitForm(null)}
        onSave={async (values) => {
          const { item, limit } = limitForm!;
          if (limit) await riskTypeWrites.updateLimit(api, productId, versionId, riskTypeId, item.id, limit.id, values);
          else await riskTypeWrites.createLimit(api, productId, versionId, riskTypeId, item.id, values);
          await changed();
          services.showToast({
            message: `${values.kind === 'deductible' ? 'Deductible' : 'Limit'} '${values.label}' ${limit ? 'saved' : 'created'}.`,
            kind: 'success',
          });
          setLimitForm(null);
        }}
      />
    </Stack>
  );
}
