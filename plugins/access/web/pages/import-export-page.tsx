import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { isApiRequestError, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { ACCESS_API, useAccessChanged } from '../access-api.js';
import { ErrorAlert } from '../components/shared.js';

interface Counts {
  created: number;
  updated: number;
  unchanged: number;
}
interface ImportResult {
  imported: Record<
    'roles' | 'policies' | 'policy_assignments' | 'role_user_name_assignments' | 'role_group_name_assignments',
    Counts
  >;
}

const IMPORT_ROWS: [keyof ImportResult['imported'], string][] = [
  ['roles', 'Roles'],
  ['policies', 'Policies'],
  ['policy_assignments', 'Policy assignments'],
  ['role_user_name_assignments', 'User assignments'],
  ['role_group_name_assignments', 'Group assignments'],
];

type Stage = { name: 'idle' } | { name: 'reading'; percent: number } | { name: 'uploading' } | { name: 'done' };

/** Reads the chosen file with progress events (the first half of the bar). */
function readFile(file: File, onProgress: (percent: number) => void): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable) onProgress((event.loaded / event.total) * 100);
    };
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(file);
  });
}

function download(content: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Export roles, policies and assignments as JSON or CSV; import such a file (everything or nothing:
 * roles and custom policies are matched by name, assignments added when missing, nothing deleted).
 */
export default function ImportExportPage() {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useAccessChanged();
  const canExport = useCan('access:transfer', 'export').allowed;
  const canImport = useCan('access:transfer', 'import').allowed;
  const [format, setFormat] = useState<'json' | 'csv'>('json');
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ name: 'idle' });
  const [result, setResult] = useState<ImportResult | null>(null);
  const [importError, setImportError] = useState<unknown>(null);

  async function runExport() {
    setExporting(true);
    setExportError(null);
    try {
      const body = await api.get<unknown>(`${ACCESS_API}/export`, {
        query: { file_format: format },
        headers: { Accept: format === 'csv' ? 'text/csv' : 'application/json' },
      });
      const date = new Date().toISOString().slice(0, 10);
      if (format === 'csv') download(String(body), `atrium-access-${date}.csv`, 'text/csv');
      else {
        const exportedAt = (body as { exported_at?: string })?.exported_at?.slice(0, 10) ?? date;
        download(JSON.stringify(body, null, 2), `atrium-access-${exportedAt}.json`, 'application/json');
      }
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(false);
    }
  }

  async function runImport() {
    if (!file) return;
    setResult(null);
    setImportError(null);
    setStage({ name: 'reading', percent: 0 });
    try {
      const bytes = await readFile(file, (percent) => setStage({ name: 'reading', percent }));
      setStage({ name: 'uploading' });
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: file.type || 'application/octet-stream' }), file.name);
      const answer = await api.post<ImportResult>(`${ACCESS_API}/import`, form);
      setStage({ name: 'done' });
      setResult(answer);
      await changed();
      services.showToast({ message: `Imported ${file.name}.`, kind: 'success' });
    } catch (error) {
      setStage({ name: 'idle' });
      setImportError(error);
    }
  }

  const percent =
    stage.name === 'reading' ? stage.percent / 2 : stage.name === 'uploading' ? 75 : stage.name === 'done' ? 100 : 0;
  const importErrors = isApiRequestError(importError) ? importError.errors : [];

  return (
    <Stack maw={760}>
      <Title order={1}>Import and export</Title>
      <section aria-label="Export">
        <Title order={2} size="h3" mb="xs">
          Export
        </Title>
        <Text size="sm" mb="sm">
          Roles, policies and assignments, as one file.
        </Text>
        <Group>
          <SegmentedControl
            aria-label="File format"
            value={format}
            onChange={(value) => setFormat(value as 'json' | 'csv')}
            data={[
              { value: 'json', label: 'JSON' },
              { value: 'csv', label: 'CSV' },
            ]}
          />
          <Button onClick={runExport} loading={exporting} disabled={!canExport}>
            Download
          </Button>
        </Group>
        <ErrorAlert error={exportError} />
      </section>
      <section aria-label="Import">
        <Title order={2} size="h3" mb="xs">
          Import
        </Title>
        <Text size="sm" mb="sm">
          A file exported here (JSON or CSV). Everything is applied or nothing: roles and custom policies are matched by
          name and created or updated, missing assignments are added, nothing is deleted.
        </Text>
        <Group align="flex-end">
          <FileInput
            label="File"
            placeholder="Choose a file"
            accept=".json,.csv,application/json,text/csv"
            clearable
            miw={280}
            value={file}
            onChange={(value) => {
              setFile(value);
              setStage({ name: 'idle' });
              setResult(null);
              setImportError(null);
            }}
          />
          <Button
            onClick={runImport}
            disabled={!file || !canImport}
            loading={stage.name === 'reading' || stage.name === 'uploading'}
          >
            Import
          </Button>
        </Group>
        {stage.name !== 'idle' && (
          <Progress
            mt="sm"
            value={percent}
            striped={stage.name === 'uploading'}
            animated={stage.name === 'uploading'}
            aria-label="Import progress"
          />
        )}
        {importError !== null && (
          <Alert color="red" role="alert" mt="sm" title="The file was not imported">
            {(importError as Error).message}
            {importErrors.length > 1 && (
              <List size="sm" mt="xs">
                {importErrors.map((error, index) => (
                  <List.Item key={index}>
                    {error.pointer && <code>{error.pointer}</code>} {error.detail}
                  </List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        {result && (
          <Table mt="sm" aria-label="Import result">
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>Created</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th>Unchanged</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {IMPORT_ROWS.map(([key, label]) => (
                <Table.Tr key={key}>
                  <Table.Td>{label}</Table.Td>
                  <Table.Td>{result.imported[key].created}</Table.Td>
                  <Table.Td>{result.imported[key].updated}</Table.Td>
                  <Table.Td>{result.imported[key].unchanged}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
    </Stack>
  );
}
