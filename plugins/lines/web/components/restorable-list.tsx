import { ActionIcon, Alert, Button, Group, Loader, Stack, Switch, Table, Text } from '@mantine/core';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { errorText } from '../scenarios/error-text.js';
import { StatusBadge } from '@atrium/sdk';
import { inheritanceLabels } from '../lines-labels.js';

/** A row of a version the list shows: live ones in order, deleted ones (when asked for) dimmed after them. */
export interface RestorableRow {
  id: number;
  name: string;
  deleted: boolean;
  inheritanceStatus: string | null;
}

export interface RestorableListColumn<T> {
  header: string;
  /** `index` is the row's place among the live rows (-1 for a deleted row). */
  cell(row: T, index: number): ReactNode;
  /** For the column's cells (`maxWidth` of a long text). */
  style?: CSSProperties;
}

export interface RestorableListProps<T extends RestorableRow> {
  /** The list as read (with the deleted rows when `showDeleted`). */
  rows: { data?: T[]; isPending: boolean; isError: boolean; error: unknown };
  /** In lower case, for `Loading rate tables` and `This risk type has no rate tables.`; capitalized, the table's name. */
  plural: string;
  columns: RestorableListColumn<T>[];
  readOnly: boolean;
  showDeleted: boolean;
  onShowDeleted(show: boolean): void;
  /** The label of the button that starts a new one (`New rate table`). */
  newLabel: string;
  onNew(): void;
  actions: {
    restore: { mutateAsync(id: number): Promise<unknown> };
    remove: { mutateAsync(id: number): Promise<unknown> };
    reorder: { mutateAsync(ids: number[]): Promise<unknown> };
  };
  /** The open row's editor, shown in the list's place (a refusal shown before stays for the way back). */
  editor?: ReactNode;
  /** Keeps the line breaks of a refusal (a rate table's problems come one a line). */
  multilineErrors?: boolean;
}

/**
 * The list part of the rate-table and calculation panels: a "Show deleted" switch, the button for a
 * new one, the rows with their columns and, on a draft (`readOnly` false), move up/down and Delete
 * for a live row, Restore for a deleted one. A refused write shows the server's words above the list.
 */
export function RestorableList<T extends RestorableRow>({
  rows,
  plural,
  columns,
  readOnly,
  showDeleted,
  onShowDeleted,
  newLabel,
  onNew,
  actions,
  multilineErrors = false,
  editor,
}: RestorableListProps<T>) {
  const [error, setError] = useState<string | null>(null);
  const run = (action: Promise<unknown>) => {
    setError(null);
    action.catch((failure: unknown) => setError(errorText(failure)));
  };
  if (editor) return editor;
  const live = (rows.data ?? []).filter((row) => !row.deleted);
  const move = (index: number, by: -1 | 1) => {
    const ids = live.map((row) => row.id);
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
          onChange={(event) => onShowDeleted(event.currentTarget.checked)}
        />
        {!readOnly && <Button onClick={onNew}>{newLabel}</Button>}
      </Group>
      {error && (
        <Alert
          color="red"
          withCloseButton
          onClose={() => setError(null)}
          style={multilineErrors ? { whiteSpace: 'pre-line' } : undefined}
        >
          {error}
        </Alert>
      )}
      {rows.isPending && <Loader size="sm" role="status" aria-label={`Loading ${plural}`} />}
      {rows.isError && <Alert color="red">{errorText(rows.error)}</Alert>}
      {rows.data && rows.data.length === 0 && <Text c="dimmed">This risk type has no {plural}.</Text>}
      {rows.data && rows.data.length > 0 && (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label={plural.charAt(0).toUpperCase() + plural.slice(1)} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.header}>{column.header}</Table.Th>
                ))}
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data.map((row) => {
                const index = live.indexOf(row);
                return (
                  <Table.Tr key={row.id} style={row.deleted ? { opacity: 0.6 } : undefined}>
                    {columns.map((column) => (
                      <Table.Td key={column.header} style={column.style}>
                        {column.cell(row, index)}
                      </Table.Td>
                    ))}
                    <Table.Td>
                      {!readOnly && row.deleted && (
                        <Button
                          size="compact-xs"
                          variant="light"
                          onClick={() => run(actions.restore.mutateAsync(row.id))}
                        >
                          Restore
                        </Button>
                      )}
                      {!readOnly && !row.deleted && (
                        <Group gap={4}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Move ${row.name} up`}
                            disabled={index <= 0}
                            onClick={() => move(index, -1)}
                          >
                            ↑
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Move ${row.name} down`}
                            disabled={index >= live.length - 1}
                            onClick={() => move(index, 1)}
                          >
                            ↓
                          </ActionIcon>
                          <Button
                            size="compact-xs"
                            color="red"
                            variant="subtle"
                            onClick={() => run(actions.remove.mutateAsync(row.id))}
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

/** A row's name (a button that opens it, when `onOpen` is given) with a badge unless the version owns it. */
export function RestorableRowName({ row, onOpen }: { row: RestorableRow; onOpen?: () => void }) {
  return (
    <>
      {onOpen ? (
        <Button variant="subtle" size="compact-sm" onClick={onOpen}>
          {row.name}
        </Button>
      ) : (
        row.name
      )}
      {row.inheritanceStatus && row.inheritanceStatus !== 'own' && (
        <StatusBadge labels={inheritanceLabels} value={row.inheritanceStatus} ml="xs" size="xs" />
      )}
    </>
  );
}
