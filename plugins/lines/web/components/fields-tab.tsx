import { Badge, Button, Card, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useApiClient, useHostServices } from '@atrium/sdk';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { moveId } from '../catalog/reorder.js';
import {
  riskTypeWrites,
  useFieldFormats,
  useRiskFields,
  useRiskTypesChanged,
  type FieldValues,
  type RiskField,
} from '../catalog/risk-types-api.js';
import { FieldEditor } from './field-editor.js';
import { OrderButtons, useRowOrdering } from './orderable-rows.js';
import { ConfirmButton, ErrorAlert, InheritanceBadge, ServerMessage, useCanWrite } from './shared.js';
import { useWriteAction } from './use-write-action.js';

/** The Fields tab of a risk type: the fields in order, the editor, delete and restore. */
export function FieldsTab({
  productId,
  versionId,
  riskTypeId,
  readOnly,
  openField,
}: {
  productId: number;
  versionId: number;
  riskTypeId: number;
  readOnly: boolean;
  /** A field name from the route's hash: opened in the editor. */
  openField: string | null;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useRiskTypesChanged();
  const canCreate = useCanWrite(LINES_RESOURCES.field, 'create') && !readOnly;
  const canUpdate = useCanWrite(LINES_RESOURCES.field, 'update') && !readOnly;
  const canDelete = useCanWrite(LINES_RESOURCES.field, 'delete') && !readOnly;
  const [showDeleted, setShowDeleted] = useState(false);
  const fields = useRiskFields(productId, versionId, riskTypeId, showDeleted);
  const formats = useFieldFormats();
  const [editing, setEditing] = useState<RiskField | 'new' | null>(null);
  const { message, act } = useWriteAction(changed);
  const list = fields.data ?? [];
  const live = list.filter((f) => !f.deleted);

  useEffect(() => {
    if (!openField) return;
    const found = list.find((f) => f.name === openField);
    if (found) setEditing(found);
    // Open once the fields have loaded; later edits are the user's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openField, fields.isSuccess]);

  const move = (from: number, to: number) =>
    act(
      () =>
        riskTypeWrites.reorderFields(
          api,
          productId,
          versionId,
          riskTypeId,
          moveId(
            live.map((f) => f.id),
            from,
            to,
          ),
        ),
      'Field order saved.',
    );
  const { rowProps } = useRowOrdering(move, !canUpdate);

  async function save(values: FieldValues) {
    if (editing && editing !== 'new') {
      await riskTypeWrites.updateField(api, productId, versionId, riskTypeId, editing.id, values);
      services.showToast({ message: `Field '${values.name}' saved.`, kind: 'success' });
    } else {
      await riskTypeWrites.createField(api, productId, versionId, riskTypeId, values);
      services.showToast({ message: `Field '${values.name}' created.`, kind: 'success' });
    }
    await changed();
    setEditing(null);
  }

  const formatLabel = new Map((formats.data ?? []).map((f) => [f.id, f.label]));

  return (
    <Stack>
      <Group justify="space-between">
        <Switch
          label="Show deleted fields"
          checked={showDeleted}
          onChange={(e) => setShowDeleted(e.currentTarget.checked)}
        />
        {canCreate && editing === null && <Button onClick={() => setEditing('new')}>Add field</Button>}
      </Group>
      <ErrorAlert error={fields.error} />
      <ServerMessage message={message} />
      {editing !== null && (
        <Card withBorder>
          <FieldEditor
            field={editing === 'new' ? null : editing}
            formats={formats.data ?? []}
            readOnly={!canUpdate}
            onCancel={() => setEditing(null)}
            onSave={save}
          />
        </Card>
      )}
      <Table.ScrollContainer minWidth={860}>
        <Table aria-label="Fields" striped>
          <Table.Thead>
            <Table.Tr>
              {canUpdate && <Table.Th>Order</Table.Th>}
              <Table.Th>Name</Table.Th>
              <Table.Th>Label</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Default</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th>Format</Table.Th>
              <Table.Th>Inheritance</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((f) => {
              const index = live.indexOf(f);
              return (
                <Table.Tr key={f.id} {...(f.deleted ? {} : rowProps(index))} aria-label={`Field ${f.name}`}>
                  {canUpdate && (
                    <Table.Td>
                      {!f.deleted && <OrderButtons index={index} count={live.length} name={f.name} onMove={move} />}
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Text size="sm" td={f.deleted ? 'line-through' : undefined}>
                      {f.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>{f.label}</Table.Td>
                  <Table.Td>
                    {f.type}
                    {f.required && (
                      <Badge size="xs" ml={4} variant="light">
                        required
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{f.type === 'computed' ? <code>{f.formula}</code> : (f.default ?? '—')}</Table.Td>
                  <Table.Td>{f.source ?? '—'}</Table.Td>
                  <Table.Td>{f.formatId ? (formatLabel.get(f.formatId) ?? f.formatId) : '—'}</Table.Td>
                  <Table.Td>
                    <InheritanceBadge status={f.inheritanceStatus} />
                    {f.deleted && (
                      <Badge size="xs" color="red" variant="light" ml={4}>
                        deleted
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {!f.deleted && (
                        <Button
                          size="xs"
                          variant="subtle"
                          aria-label={`${canUpdate ? 'Edit' : 'View'} ${f.name}`}
                          onClick={() => setEditing(f)}
                        >
                          {canUpdate ? 'Edit' : 'View'}
                        </Button>
                      )}
                      {canDelete && !f.deleted && (
                        <ConfirmButton
                          label="field"
                          verb="delete"
                          color="red"
                          size="xs"
                          variant="subtle"
                          ariaLabel={`Delete ${f.name}`}
                          onConfirm={() =>
                            act(
                              () => riskTypeWrites.deleteField(api, productId, versionId, riskTypeId, f.id),
                              `Field '${f.name}' deleted.`,
                            )
                          }
                        >
                          Delete
                        </ConfirmButton>
                      )}
                      {canCreate && f.deleted && (
                        <Button
                          size="xs"
                          variant="subtle"
                          aria-label={`Restore ${f.name}`}
                          onClick={() =>
                            act(
                              () => riskTypeWrites.restoreField(api, productId, versionId, riskTypeId, f.id),
                              `Field '${f.name}' restored.`,
                            )
                          }
                        >
                          Restore
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {fields.isSuccess && list.length === 0 && <Text c="dimmed">No fields.</Text>}
    </Stack>
  );
}
