import {
  Button,
  Checkbox,
  FileButton,
  Grid,
  Group,
  Modal,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Tree, type NodeRendererProps } from 'react-arborist';
import { ErrorAlert, useApiClient, useCan, useTreeKeyboard } from '@atrium/sdk';
import {
  deleteAttachment,
  moveAttachments,
  uploadAttachment,
  useAttachmentsChanged,
  useFolderFiles,
  useFolderTree,
  type FolderNode,
  type UploadProgress,
} from '../api/attachments-api.js';
import type { Claim } from '../api/claims-api.js';
import { errorMessageOf } from '../api/jsonapi.js';
import { downloadAttachment } from './attachments-download.js';

function FolderRow({ node, style }: NodeRendererProps<FolderNode>) {
  return (
    <div
      style={{ ...style, cursor: 'pointer', fontWeight: node.isSelected ? 600 : 400 }}
      onClick={() => node.select()}
      role="treeitem"
      aria-selected={node.isSelected}
    >
      {node.isLeaf ? '📁' : node.isOpen ? '📂' : '📁'} {node.data.name}
    </div>
  );
}

const flattenFolders = (nodes: FolderNode[], depth = 0): { id: string; label: string }[] =>
  nodes.flatMap((n) => [
    { id: n.id, label: `${'  '.repeat(depth)}${n.name}` },
    ...flattenFolders(n.children, depth + 1),
  ]);

function UploadProgressBar({ name, progress }: { name: string; progress: UploadProgress }) {
  const percent = progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;
  return (
    <Stack gap={4}>
      <Text size="sm">
        Uploading {name} — {percent}%
      </Text>
      <Progress value={percent} aria-label={`Uploading ${name}`} />
    </Stack>
  );
}

/**
 * claims:attachments — the claim's folder tree (react-arborist), the selected folder's files,
 * upload into it, download a file and move selected files to another folder.
 */
export function AttachmentsTab({ claim }: { claim: Claim }) {
  const api = useApiClient();
  const root = claim.exposures_folder_id ? String(claim.exposures_folder_id) : null;
  const tree = useFolderTree(claim.id, root);
  const [folderId, setFolderId] = useState<string | null>(null);
  // Enter on a focused folder shows its files, as a click does (Space only opens or closes it).
  const folderKeys = useTreeKeyboard<FolderNode>((node) => setFolderId(node.data.id));
  const current = folderId ?? tree.data?.[0]?.id ?? null;
  const files = useFolderFiles(claim.id, current);
  const changed = useAttachmentsChanged(claim.id);
  const canWrite = useCan('claims:attachment', 'create');
  const canDelete = useCan('claims:attachment', 'delete');
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [uploading, setUploading] = useState<{ name: string; progress: UploadProgress } | null>(null);
  const [downloading, setDownloading] = useState<ReadonlySet<string>>(new Set());
  const download = async (file: { id: string; name: string }) => {
    setError(null);
    setDownloading((ids) => new Set(ids).add(file.id));
    try {
      await downloadAttachment(api, file);
    } catch (e) {
      setError(new Error(errorMessageOf(e)));
    } finally {
      setDownloading((ids) => {
        const next = new Set(ids);
        next.delete(file.id);
        return next;
      });
    }
  };
  const folders = flattenFolders(tree.data ?? []);

  return (
    <Grid>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete attachment">
        <Stack>
          <Text>Delete {deleting?.name}? The file cannot be recovered.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={deleteBusy}
              onClick={async () => {
                if (!deleting) return;
                setError(null);
                setDeleteBusy(true);
                try {
                  await deleteAttachment(api, deleting.id);
                  setSelected((ids) => {
                    const next = new Set(ids);
                    next.delete(deleting.id);
                    return next;
                  });
                  void changed();
                } catch (e) {
                  setError(new Error(errorMessageOf(e)));
                } finally {
                  setDeleteBusy(false);
                  setDeleting(null);
                }
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Title order={4}>Folders</Title>
        <ErrorAlert error={tree.error} />
        {root ? null : <Text c="dimmed">This claim has no attachment folder.</Text>}
        {tree.data ? (
          <div onKeyDown={folderKeys.onKeyDown}>
            <Tree<FolderNode>
              ref={folderKeys.treeRef}
              data={tree.data}
              idAccessor="id"
              childrenAccessor="children"
              openByDefault
              width="100%"
              height={320}
              rowHeight={28}
              disableDrag
              disableDrop
              onSelect={(nodes) => nodes[0] && setFolderId(nodes[0].id)}
            >
              {FolderRow}
            </Tree>
          </div>
        ) : null}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack>
          <Group justify="space-between">
            <Title order={4}>Files</Title>
            {canWrite.allowed && current ? (
              <FileButton
                disabled={uploading !== null}
                onChange={async (file) => {
                  if (!file) return;
                  setError(null);
                  setUploading({ name: file.name, progress: { loaded: 0, total: file.size } });
                  try {
                    await uploadAttachment(api, current, file, (progress) =>
                      setUploading({ name: file.name, progress }),
                    );
                    void changed();
                  } catch (e) {
                    setError(new Error(errorMessageOf(e)));
                  } finally {
                    setUploading(null);
                  }
                }}
              >
                {(props) => (
                  <Button {...props} loading={uploading !== null}>
                    Upload
                  </Button>
                )}
              </FileButton>
            ) : null}
          </Group>
          {uploading ? <UploadProgressBar name={uploading.name} progress={uploading.progress} /> : null}
          <ErrorAlert error={files.error ?? error} />
          {files.data && files.data.length === 0 ? <Text c="dimmed">No files in this folder.</Text> : null}
          {files.data && files.data.length > 0 ? (
            <Table aria-label="Files">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={32} />
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Added</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {files.data.map((file) => (
                  <Table.Tr key={file.id}>
                    <Table.Td w={32}>
                      <Checkbox
                        aria-label={`Select ${file.name}`}
                        checked={selected.has(file.id)}
                        onChange={(e) => {
                          const next = new Set(selected);
                          if (e.currentTarget.checked) next.add(file.id);
                          else next.delete(file.id);
                          setSelected(next);
                        }}
                      />
                    </Table.Td>
                    <Table.Td>{file.name}</Table.Td>
                    <Table.Td>{file.mime_type}</Table.Td>
                    <Table.Td>{file.date_added}</Table.Td>
                    <Table.Td w={1}>
                      <Button
                        size="xs"
                        variant="subtle"
                        aria-label={`Download ${file.name}`}
                        loading={downloading.has(file.id)}
                        onClick={() => void download(file)}
                      >
                        Download
                      </Button>
                      {canDelete.allowed ? (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${file.name}`}
                          onClick={() => setDeleting(file)}
                        >
                          Delete
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          {canWrite.allowed && selected.size > 0 ? (
            <Group align="flex-end">
              <Select
                label="Move to folder"
                data={folders.filter((f) => f.id !== current).map((f) => ({ value: f.id, label: f.label }))}
                value={target}
                onChange={setTarget}
              />
              <Button
                disabled={!target}
                onClick={async () => {
                  setError(null);
                  try {
                    await moveAttachments(api, target!, [...selected]);
                    setSelected(new Set());
                    void changed();
                  } catch (e) {
                    setError(new Error(errorMessageOf(e)));
                  }
                }}
              >
                Move {selected.size}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
