import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useApiClient } from '@atrium/sdk';
import { serverMessage } from '../catalog/api-shared.js';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { downloadExport, startExport, useExports, useProductViewsChanged } from '../catalog/product-views-api.js';
import { ErrorAlert, ServerMessage, useCanWrite } from './shared.js';
import { useWriteAction } from './use-write-action.js';

/** Product exports of a version: start one, list them, download a ready one. */
export function ExportsView({ productId, versionId }: { productId: number; versionId: number }) {
  const api = useApiClient();
  const changed = useProductViewsChanged();
  const canCreate = useCanWrite(LINES_RESOURCES.export, 'create');
  const exports = useExports(productId, versionId);
  const { message, setMessage, act } = useWriteAction(changed);

  const start = () => act(() => startExport(api, productId, versionId), 'Export started.');

  return (
    <Stack>
      {canCreate && (
        <Group>
          <Button onClick={start}>Start export</Button>
        </Group>
      )}
      <ErrorAlert error={exports.error} />
      <ServerMessage message={message} />
      <Table aria-label="Exports">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Export</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(exports.data ?? []).map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{e.fileName ?? `Export ${e.id}`}</Table.Td>
              <Table.Td>{e.status}</Table.Td>
              <Table.Td>{e.createdAt ?? '—'}</Table.Td>
              <Table.Td>
                {e.status === 'ready' && (
                  <Button
                    size="xs"
                    variant="subtle"
                    onClick={() =>
                      downloadExport(api, productId, { ...e, versionId: e.versionId ?? versionId }).catch(
                        (error: unknown) => setMessage(serverMessage(error)),
                      )
                    }
                  >
                    Download
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {exports.isSuccess && exports.data.length === 0 && <Text c="dimmed">No exports yet.</Text>}
    </Stack>
  );
}
