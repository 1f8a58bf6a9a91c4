import { Alert, Anchor, Badge, Button, Card, FileButton, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiClient, useHostServices } from '@atrium/sdk';
import { serverMessage } from '../catalog/api-shared.js';
import { useLinesChanged } from '../catalog/lines-api.js';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import {
  runProductImport,
  uploadProductImport,
  useProductImport,
  useProductLineName,
} from '../catalog/product-imports-api.js';
import { lineOverviewRoute } from '../routes.js';
import { ErrorAlert, ServerMessage, useCanWrite } from './shared.js';

const STATUS_COLORS: Record<string, string> = { uploaded: 'blue', imported: 'green', failed: 'red' };

/**
 * Import a product from a product export (JSON): upload it (checked at once), read its status and
 * errors, import it with or without overwriting a draft of the same product, then open the result.
 */
export function ProductImportsCard() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const linesChanged = useLinesChanged();
  const canImport = useCanWrite(LINES_RESOURCES.import, 'create');
  const [importId, setImportId] = useState<number | null>(null);
  const [productName, setProductName] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = useProductImport(importId);
  const state = current.data ?? null;
  const lineName = useProductLineName(state?.status === 'imported' ? state.productId : null);

  if (!canImport) return null;

  async function upload(file: File | null) {
    if (!file) return;
    setMessage(null);
    setBusy(true);
    try {
      const uploaded = await uploadProductImport(api, file);
      setProductName(uploaded.productName);
      queryClient.setQueryData(['lines', 'product-imports', uploaded.id], uploaded);
      setImportId(uploaded.id);
    } catch (error) {
      setImportId(null);
      setMessage(serverMessage(error));
    } finally {
      setBusy(false);
    }
  }

  async function run(overwrite: boolean) {
    if (importId === null) return;
    setMessage(null);
    setBusy(true);
    try {
      const done = await runProductImport(api, importId, overwrite);
      queryClient.setQueryData(['lines', 'product-imports', importId], done);
      await linesChanged();
      services.showToast({ message: `Product '${productName ?? done.productId}' imported.`, kind: 'success' });
    } catch (error) {
      setMessage(serverMessage(error));
      // A failed import is kept with its errors: read them back.
      await current.refetch();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder aria-label="Product import">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h5">
            Import a product
          </Title>
          <FileButton onChange={(file) => void upload(file)} accept=".json,application/json">
            {(props) => (
              <Button size="xs" variant="default" loading={busy && importId === null} {...props}>
                Upload product export
              </Button>
            )}
          </FileButton>
        </Group>
        <ServerMessage message={message} />
        <ErrorAlert error={current.error} />
        {state && (
          <Stack gap="xs" aria-label={`Product import ${state.id}`}>
            <Group gap="xs">
              <Text size="sm">
                {state.fileName ?? 'product.json'}
                {productName ? ` — product ${productName}` : ''}
              </Text>
              <Badge color={STATUS_COLORS[state.status] ?? 'gray'} variant="light">
                {state.status}
              </Badge>
            </Group>
            {state.errors.length > 0 && (
              <Alert color="red" title="Import errors">
                <List size="sm">
                  {state.errors.map((e, i) => (
                    <List.Item key={i}>{e}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {state.status !== 'imported' && (
              <Group gap="xs">
                <Button size="xs" loading={busy} onClick={() => void run(false)}>
                  Import
                </Button>
                <Button size="xs" variant="light" color="orange" loading={busy} onClick={() => void run(true)}>
                  Import and overwrite draft
                </Button>
              </Group>
            )}
            {state.status === 'imported' && lineName.data && (
              <Anchor
                component={Link}
                to={lineOverviewRoute.link(
                  { lineName: lineName.data },
                  { version_id: state.productVersionId ?? undefined },
                )}
              >
                Open the imported product
              </Anchor>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
