import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  FileButton,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useApiClient, useHostServices } from '@atrium/sdk';
import { useEffect, useMemo, useState } from 'react';
import { downloadFromApi } from './download.js';
import {
  cellsToRows,
  emptyRow,
  gridColumns,
  remapCells,
  rowsToCells,
  type CellPosition,
  type CellProblem,
  type GridCells,
  type KeyColumn,
  type PasteResult,
} from './rate-table-grid-model.js';
import { RateTableGrid } from './rate-table-grid.js';
import {
  rateTableExportPath,
  useRateTable,
  useRateTableActions,
  type RateTableDetail,
  type RateTableInput,
  type RateTableScope,
} from './rate-tables-api.js';
import { errorText } from '../scenarios/error-text.js';

/**
 * One rate table: its name, label and default, the key columns (exact or range, one of them maybe
 * interpolated), and its rows in a spreadsheet-like grid that takes a paste. The whole table is
 * saved at once (`PUT …/rate-tables/{id}/`), so a paste is checked by the server with every row.
 */
export interface RateTableEditorProps {
  scope: RateTableScope;
  /** null: a new table. */
  tableId: number | null;
  readOnly: boolean;
  onClose(): void;
  onCreated(id: number): void;
}

export default function RateTableEditor({ scope, tableId, readOnly, onClose, onCreated }: RateTableEditorProps) {
  const table = useRateTable(scope, tableId);
  if (tableId !== null && table.isPending) return <Loader size="sm" role="status" aria-label="Loading rate table" />;
  if (tableId !== null && table.isError)
    return (
      <Alert color="red" title="The rate table could not be loaded">
        {errorText(table.error)}
      </Alert>
    );
  return (
    <RateTableForm
      key={tableId ?? 'new'}
      scope={scope}
      initial={table.data ?? null}
      readOnly={readOnly}
      onClose={onClose}
      onCreated={onCreated}
    />
  );
}

interface FormProps {
  scope: RateTableScope;
  initial: RateTableDetail | null;
  readOnly: boolean;
  onClose(): void;
  onCreated(id: number): void;
}

function RateTableForm({ scope, initial, readOnly, onClose, onCreated }: FormProps) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const actions = useRateTableActions(scope);
  const [name, setName] = useState(initial?.name ?? '');
  const [label, setLabel] = useState(initial?.label ?? '');
  const [defaultValue, setDefaultValue] = useState(initial?.default ?? '');
  const [keys, setKeys] = useState<KeyColumn[]>(initial?.keyColumns ?? [{ name: 'key', match: 'exact' }]);
  const [interpolate, setInterpolate] = useState<string | null>(initial?.interpolate ?? null);
  const columns = useMemo(() => gridColumns(keys), [keys]);
  const [cells, setCells] = useState<GridCells>(() =>
    initial && initial.rows.length > 0 ? rowsToCells(initial.keyColumns, initial.rows) : [emptyRow(columns.length)],
  );
  const [selected, setSelected] = useState<CellPosition>({ row: 0, col: 0 });
  const [problems, setProblems] = useState<CellProblem[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);

  // A reloaded table (after an import) replaces the grid.
  useEffect(() => {
    if (!initial) return;
    setKeys(initial.keyColumns);
    setInterpolate(initial.interpolate);
    setCells(
      initial.rows.length > 0
        ? rowsToCells(initial.keyColumns, initial.rows)
        : [emptyRow(gridColumns(initial.keyColumns).length)],
    );
  }, [initial]);

  const changeKeys = (next: KeyColumn[]) => {
    setCells((current) => remapCells(columns, gridColumns(next), current));
    setKeys(next);
    if (interpolate && !next.some((k) => k.name === interpolate && k.match === 'exact')) setInterpolate(null);
    setDirty(true);
  };

  const onGridChange = (next: GridCells, paste?: PasteResult) => {
    setCells(next);
    setDirty(true);
    setProblems([]);
    if (paste) {
      const rows = paste.to.row - paste.from.row + 1;
      const cols = paste.to.col - paste.from.col + 1;
      setNotice(
        `Pasted ${rows} ${rows === 1 ? 'row' : 'rows'} × ${cols} ${cols === 1 ? 'column' : 'columns'} at row ${
          paste.from.row + 1
        }, column '${columns[paste.from.col]?.label}'` +
          (paste.addedRows > 0 ? `; ${paste.addedRows} rows added` : '') +
          (paste.clippedColumns > 0
            ? `; ${paste.clippedColumns} columns beyond '${columns.at(-1)?.label}' left out`
            : '') +
          '.',
      );
      setSelected(paste.from);
    }
  };

  const addRow = () => {
    const at = cells.length === 0 ? 0 : selected.row + 1;
    setCells([...cells.slice(0, at), emptyRow(columns.length), ...cells.slice(at)]);
    setSelected({ row: at, col: 0 });
    setDirty(true);
  };
  const removeRow = () => {
    if (cells.length === 0) return;
    const next = cells.filter((_, i) => i !== selected.row);
    setCells(next);
    setSelected({ row: Math.min(selected.row, Math.max(0, next.length - 1)), col: selected.col });
    setDirty(true);
  };

  const save = async () => {
    setError(null);
    const { rows, problems: found } = cellsToRows(keys, cells);
    setProblems(found);
    if (found.length > 0) {
      setError(
        found
          .slice(0, 5)
          .map((p) => `Row ${p.row + 1}, column '${columns[p.col]?.label}': ${p.message}`)
          .join('\n') + (found.length > 5 ? `\n… and ${found.length - 5} more` : ''),
      );
      return;
    }
    const input: RateTableInput = {
      name: name.trim(),
      label: label.trim() || name.trim(),
      key_columns: keys,
      interpolate,
      default: defaultValue.trim() === '' ? null : defaultValue.trim(),
      rows,
    };
    try {
      if (initial) await actions.save.mutateAsync({ id: initial.id, input });
      else {
        const created = await actions.create.mutateAsync(input);
        onCreated(created.id);
      }
      setDirty(false);
      setNotice(null);
      showToast({ kind: 'success', message: `Rate table '${input.name}' saved (${rows.length} rows).` });
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const importFile = async (file: File | null) => {
    if (!file || !initial) return;
    setError(null);
    try {
      const table = await actions.importFile.mutateAsync({ id: initial.id, file });
      setDirty(false);
      setNotice(`Imported ${table.rows.length} rows from ${file.name}.`);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const exportFile = (format: 'csv' | 'xlsx') => {
    if (!initial) return;
    downloadFromApi(api, rateTableExportPath(scope, initial.id, format), `${initial.name}.${format}`).catch(
      (failure: unknown) => setError(errorText(failure)),
    );
  };

  const saving = actions.save.isPending || actions.create.isPending;
  return (
    <Stack gap="sm" aria-label="Rate table editor">
      <Group justify="space-between">
        <Title order={4}>{initial ? `Rate table ${initial.name}` : 'New rate table'}</Title>
        <Button variant="subtle" onClick={onClose}>
          Back to rate tables
        </Button>
      </Group>
      {readOnly && <Alert color="gray">This version is not a draft: its rate tables are read-only.</Alert>}
      <Group align="end">
        <TextInput
          label="Name"
          value={name}
          readOnly={readOnly}
          required
          onChange={(e) => (setName(e.currentTarget.value), setDirty(true))}
        />
        <TextInput
          label="Label"
          value={label}
          readOnly={readOnly}
          onChange={(e) => (setLabel(e.currentTarget.value), setDirty(true))}
        />
        <TextInput
          label="Default value"
          description="Used when no row matches; empty: a missing row is an error"
          value={defaultValue}
          readOnly={readOnly}
          onChange={(e) => (setDefaultValue(e.currentTarget.value), setDirty(true))}
        />
      </Group>
      <KeyColumnsEditor
        keys={keys}
        interpolate={interpolate}
        readOnly={readOnly}
        onChange={changeKeys}
        onInterpolate={(k) => (setInterpolate(k), setDirty(true))}
      />
      <Group gap="xs">
        {!readOnly && (
          <>
            <Button size="xs" variant="default" onClick={addRow}>
              Add row
            </Button>
            <Button size="xs" variant="default" onClick={removeRow} disabled={cells.length === 0}>
              Remove row {cells.length > 0 ? selected.row + 1 : ''}
            </Button>
            <FileButton
              onChange={(file) => void importFile(file)}
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            >
              {(props) => (
                <Button
                  size="xs"
                  variant="default"
                  {...props}
                  disabled={!initial || dirty}
                  title={!initial ? 'Save the table first' : dirty ? 'Save or discard your changes first' : undefined}
                >
                  Import CSV or XLSX
                </Button>
              )}
            </FileButton>
          </>
        )}
        <Button size="xs" variant="default" onClick={() => exportFile('csv')} disabled={!initial}>
          Export CSV
        </Button>
        <Button size="xs" variant="default" onClick={() => exportFile('xlsx')} disabled={!initial}>
          Export XLSX
        </Button>
        <Text size="xs" c="dimmed">
          {cells.length} rows · select a cell and paste cells copied from a spreadsheet
        </Text>
      </Group>
      <RateTableGrid
        columns={columns}
        cells={cells}
        onChange={onGridChange}
        readOnly={readOnly}
        selected={selected}
        onSelect={setSelected}
        problems={problems}
      />
      {notice && (
        <Text size="sm" role="status">
          {notice}
        </Text>
      )}
      {error && (
        <Alert color="red" title="The rate table was not saved" style={{ whiteSpace: 'pre-line' }}>
          {error}
        </Alert>
      )}
      {!readOnly && (
        <Group>
          <Button onClick={() => void save()} loading={saving} disabled={name.trim() === ''}>
            Save rate table
          </Button>
          {dirty && (
            <Text size="sm" c="dimmed">
              Unsaved changes
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}

interface KeyColumnsEditorProps {
  keys: KeyColumn[];
  interpolate: string | null;
  readOnly: boolean;
  onChange(keys: KeyColumn[]): void;
  onInterpolate(key: string | null): void;
}

/** Key columns in lookup order: name, exact or range, and which exact key (if any) is interpolated. */
function KeyColumnsEditor({ keys, interpolate, readOnly, onChange, onInterpolate }: KeyColumnsEditorProps) {
  const update = (index: number, patch: Partial<KeyColumn>) =>
    onChange(keys.map((key, i) => (i === index ? { ...key, ...patch } : key)));
  return (
    <Stack gap={4} aria-label="Key columns">
      <Text size="sm" fw={500}>
        Key columns (lookup order)
      </Text>
      {keys.map((key, index) => (
        <Group key={index} gap="xs" align="center">
          <TextInput
            size="xs"
            aria-label={`Key column ${index + 1} name`}
            value={key.name}
            readOnly={readOnly}
            onChange={(e) => update(index, { name: e.currentTarget.value })}
          />
          <Select
            size="xs"
            aria-label={`Key column ${index + 1} match`}
            data={[
              { value: 'exact', label: 'Exact' },
              { value: 'range', label: 'Range (from ≤ value < to)' },
            ]}
            value={key.match}
            readOnly={readOnly}
            allowDeselect={false}
            onChange={(value) => value && update(index, { match: value as KeyColumn['match'] })}
          />
          <Checkbox
            size="xs"
            label="Interpolate"
            disabled={readOnly || key.match !== 'exact'}
            checked={interpolate === key.name && key.name !== ''}
            onChange={(e) => onInterpolate(e.currentTarget.checked ? key.name : null)}
          />
          {!readOnly && (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove key column ${key.name || index + 1}`}
              disabled={keys.length <= 1}
              onClick={() => onChange(keys.filter((_, i) => i !== index))}
            >
              ×
            </ActionIcon>
          )}
        </Group>
      ))}
      {!readOnly && (
        <Group>
          <Button size="xs" variant="subtle" onClick={() => onChange([...keys, { name: '', match: 'exact' }])}>
            Add key column
          </Button>
        </Group>
      )}
    </Stack>
  );
}
