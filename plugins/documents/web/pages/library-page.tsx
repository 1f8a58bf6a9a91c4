import {
  Alert,
  Anchor,
  Button,
  Code,
  FileInput,
  Group,
  Image,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  createComponent,
  deleteAsset,
  deleteComponent,
  fileToBase64,
  libraryKeys,
  listAssets,
  listComponents,
  listHelpers,
  messageOf,
  saveComponent,
  uploadAsset,
  type AssetItem,
  type ComponentItem,
} from '../api.js';
import { documentsRoute } from '../routes.js';

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;
const TYPE_LABELS: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/svg+xml': 'SVG' };

/** An asset's image, fetched with the caller's token (a plain <img src> would send none). */
function AssetThumb({ asset }: { asset: AssetItem }) {
  const api = useApiClient();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    void api.getBlob(`/documents/assets/${asset.id}/content/`).then(({ blob }) => {
      made = URL.createObjectURL(blob);
      setUrl(made);
    });
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [api, asset.id]);
  return url ? <Image src={url} alt={asset.name} h={32} w="auto" fit="contain" /> : <Loader size="xs" />;
}

function ComponentRow({ item, canAuthor }: { item: ComponentItem; canAuthor: boolean }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [source, setSource] = useState(item.source);
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: libraryKeys.components });
  const save = useMutation({
    mutationFn: () => saveComponent(api, item.id, { source }),
    onSuccess: async () => {
      await refresh();
      showToast({ message: `Component "${item.name}" saved.`, kind: 'success' });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteComponent(api, item.id),
    onSuccess: async () => {
      await refresh();
      showToast({ message: `Component "${item.name}" deleted.`, kind: 'success' });
    },
  });
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600}>{item.name}</Text>
        <Text size="xs" c="dimmed">
          {item.description}
        </Text>
      </Table.Td>
      <Table.Td>
        <Code>{item.import_line}</Code>
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setOpen(!open)}>
              {open ? `Hide ${item.name}` : canAuthor ? `Edit ${item.name}` : `Show ${item.name}`}
            </Button>
            {canAuthor && (
              <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
                Delete {item.name}
              </Button>
            )}
          </Group>
          {open && (
            <>
              <Textarea
                aria-label={`Source of ${item.name}`}
                value={source}
                onChange={(e) => setSource(e.currentTarget.value)}
                readOnly={!canAuthor}
                autosize
                minRows={4}
                styles={{ input: { fontFamily: 'monospace' } }}
              />
              {canAuthor && (
                <Button
                  size="xs"
                  onClick={() => save.mutate()}
                  disabled={source === item.source}
                  loading={save.isPending}
                >
                  Save {item.name}
                </Button>
              )}
            </>
          )}
          {(save.error || remove.error) && <Alert color="red">{messageOf(save.error ?? remove.error)}</Alert>}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Components (reusable template source), assets (images) and the helper functions templates may
 * call. Authors create and change them; readers see them.
 */
export default function LibraryPage() {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canAuthor = useCan('documents:template', 'author').allowed;
  const components = useQuery({ queryKey: libraryKeys.components, queryFn: () => listComponents(api) });
  const assets = useQuery({ queryKey: libraryKeys.assets, queryFn: () => listAssets(api) });
  const helpers = useQuery({ queryKey: libraryKeys.helpers, queryFn: () => listHelpers(api), staleTime: Infinity });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [source, setSource] = useState('');
  const [assetName, setAssetName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const create = useMutation({
    mutationFn: () => createComponent(api, { name: name.trim(), description, source }),
    onSuccess: async (c) => {
      setName('');
      setDescription('');
      setSource('');
      await queryClient.invalidateQueries({ queryKey: libraryKeys.components });
      showToast({ message: `Component "${c.name}" created.`, kind: 'success' });
    },
  });
  const upload = useMutation({
    mutationFn: async () => uploadAsset(api, { name: assetName.trim(), content_base64: await fileToBase64(file!) }),
    onSuccess: async (a) => {
      setAssetName('');
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: libraryKeys.assets });
      showToast({ message: `Asset "${a.name}" uploaded.`, kind: 'success' });
    },
  });
  const removeAsset = useMutation({
    mutationFn: (a: AssetItem) => deleteAsset(api, a.id).then(() => a),
    onSuccess: async (a) => {
      await queryClient.invalidateQueries({ queryKey: libraryKeys.assets });
      showToast({ message: `Asset "${a.name}" deleted.`, kind: 'success' });
    },
  });
  const error = components.error ?? assets.error ?? helpers.error;
  if (error) return <Alert color="red">{messageOf(error)}</Alert>;
  if (!components.data || !assets.data || !helpers.data) {
    return <Loader size="sm" role="status" aria-label="Loading components and assets" />;
  }
  return (
    <Stack>
      <Anchor component={Link} to={documentsRoute.link({})} size="sm">
        ← All documents
      </Anchor>
      <Title order={1}>Components and assets</Title>
      <Text c="dimmed" size="sm">
        Templates import components and show assets by name; a production document keeps what it was rendered with.
      </Text>

      <Title order={2}>Components</Title>
      <Table striped aria-label="Components">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Component</Table.Th>
            <Table.Th>In a template</Table.Th>
            <Table.Th>Source</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {components.data.map((c) => (
            <ComponentRow key={`${c.id}-${c.updated_at}`} item={c} canAuthor={canAuthor} />
          ))}
        </Table.Tbody>
      </Table>
      {canAuthor && (
        <Stack gap="xs" maw={640}>
          <Title order={3}>New component</Title>
          <TextInput
            label="Component name"
            placeholder="address-block"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            label="Component description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Textarea
            label="Component source"
            placeholder={'#let address-block(p) = [#p.insured.name \\\\ #p.insured.address]'}
            value={source}
            onChange={(e) => setSource(e.currentTarget.value)}
            autosize
            minRows={3}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <Group>
            <Button
              onClick={() => create.mutate()}
              loading={create.isPending}
              disabled={!name.trim() || !source.trim()}
            >
              Create component
            </Button>
          </Group>
          {create.error && <Alert color="red">{messageOf(create.error)}</Alert>}
        </Stack>
      )}

      <Title order={2}>Assets</Title>
      <Table striped aria-label="Assets">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Image</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>In a template</Table.Th>
            {canAuthor && <Table.Th>Delete</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {assets.data.map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td>
                <AssetThumb asset={a} />
              </Table.Td>
              <Table.Td>{a.name}</Table.Td>
              <Table.Td>{TYPE_LABELS[a.mime_type] ?? 'Image'}</Table.Td>
              <Table.Td>{kb(a.byte_size)}</Table.Td>
              <Table.Td>
                <Code>{a.usage}</Code>
              </Table.Td>
              {canAuthor && (
                <Table.Td>
                  <Button size="xs" variant="subtle" color="red" onClick={() => removeAsset.mutate(a)}>
                    Delete {a.name}
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {removeAsset.error && <Alert color="red">{messageOf(removeAsset.error)}</Alert>}
      {canAuthor && (
        <Group align="flex-end">
          <FileInput
            label="Image (PNG, JPEG or SVG)"
            accept="image/png,image/jpeg,image/svg+xml"
            value={file}
            onChange={(f) => {
              setFile(f);
              if (f && !assetName) setAssetName(f.name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-'));
            }}
            clearable
            w={260}
          />
          <TextInput label="Asset name" value={assetName} onChange={(e) => setAssetName(e.currentTarget.value)} />
          <Button onClick={() => upload.mutate()} loading={upload.isPending} disabled={!file || !assetName.trim()}>
            Upload asset
          </Button>
        </Group>
      )}
      {upload.error && <Alert color="red">{messageOf(upload.error)}</Alert>}

      <Title order={2}>Helper functions</Title>
      <Table striped aria-label="Helper functions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Function</Table.Th>
            <Table.Th>What it does</Table.Th>
            <Table.Th>Example</Table.Th>
            <Table.Th>Gives</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {helpers.data.map((h) => (
            <Table.Tr key={h.name}>
              <Table.Td>
                <Code>{h.signature}</Code>
              </Table.Td>
              <Table.Td>{h.description}</Table.Td>
              <Table.Td>
                <Code>{h.example}</Code>
              </Table.Td>
              <Table.Td>{h.result}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
