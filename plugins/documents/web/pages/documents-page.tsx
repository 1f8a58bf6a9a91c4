import { Alert, Badge, Group, Loader, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useApiClient, useTreeKeyboard } from '@atrium/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { Tree, type NodeRendererProps } from 'react-arborist';
import { foldersClient, messageOf, templatesClient, type FolderItem, type TemplateItem } from '../api.js';
import { documentsTemplateRoute } from '../routes.js';

interface TreeNode {
  id: string;
  name: string;
  kind: 'folder' | 'template';
  subject?: string;
  templateId?: string;
  disabled?: boolean;
  children?: TreeNode[];
}

const ROW_HEIGHT = 30;
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** Folders and templates as a tree: items sorted by name, a folder with nothing inside disabled. */
export function buildTree(folders: FolderItem[], templates: TemplateItem[]): TreeNode[] {
  const build = (parentId: string | null): TreeNode[] => {
    const subFolders = folders
      .filter((f) => (f.parent_id ?? null) === parentId)
      .map((f): TreeNode => {
        const children = [
          ...build(f.id),
          ...templates
            .filter((t) => t.folder_id === f.id)
            .map((t): TreeNode => ({
              id: `t${t.id}`,
              name: t.name,
              kind: 'template',
              subject: t.subject,
              templateId: t.id,
            })),
        ].sort(byName);
        return { id: `f${f.id}`, name: f.name, kind: 'folder', children, disabled: children.length === 0 };
      });
    return subFolders.sort(byName);
  };
  return build(null);
}

const countRows = (nodes: TreeNode[]): number => nodes.reduce((n, node) => n + 1 + countRows(node.children ?? []), 0);

function Row({ node, style }: NodeRendererProps<TreeNode>) {
  const data = node.data;
  if (data.kind === 'template') {
    return (
      <div style={style}>
        <Group gap={6} wrap="nowrap" h={ROW_HEIGHT} pl={20}>
          <Text size="sm" component={Link} to={documentsTemplateRoute.link({ templateId: data.templateId! })} c="blue">
            {data.name}
          </Text>
          <Badge size="xs" variant="light" color="gray">
            {data.subject === 'claim' ? 'Claim' : 'Policy'}
          </Badge>
        </Group>
      </div>
    );
  }
  return (
    <div style={style}>
      <Group gap={4} wrap="nowrap" h={ROW_HEIGHT}>
        <UnstyledButton
          disabled={data.disabled}
          aria-disabled={data.disabled ? 'true' : undefined}
          aria-label={
            data.disabled ? `${data.name}, empty folder` : `${node.isOpen ? 'Collapse' : 'Expand'} ${data.name}`
          }
          onClick={() => node.toggle()}
          style={{ opacity: data.disabled ? 0.5 : 1, cursor: data.disabled ? 'default' : 'pointer' }}
        >
          <Group gap={4} wrap="nowrap">
            <Text size="sm" w={14}>
              {data.disabled ? '' : node.isOpen ? '▾' : '▸'}
            </Text>
            <Text size="sm" fw={600} c={data.disabled ? 'dimmed' : undefined}>
              {data.name}
            </Text>
            {data.disabled && (
              <Text size="xs" c="dimmed">
                (empty)
              </Text>
            )}
          </Group>
        </UnstyledButton>
      </Group>
    </div>
  );
}

export default function DocumentsPage() {
  const api = useApiClient();
  const folders = useQuery(foldersClient.allQuery(api));
  const templates = useQuery(templatesClient.allQuery(api));
  const error = folders.error ?? templates.error;
  const navigate = useNavigate();
  // Enter on a focused row: a template opens, a folder opens or closes (as a click does).
  const keys = useTreeKeyboard<TreeNode>((node) => {
    if (node.data.kind === 'template') navigate(documentsTemplateRoute.link({ templateId: node.data.templateId! }));
    else if (!node.data.disabled) node.toggle();
  });
  const tree =
    folders.data && templates.data
      ? buildTree(folders.data as unknown as FolderItem[], templates.data as unknown as TemplateItem[])
      : null;
  return (
    <Stack>
      <Title order={1}>Documents</Title>
      <Text c="dimmed" size="sm">
        Document templates by folder. Open a template to see its source, a live preview and its versions.
      </Text>
      {error && <Alert color="red">{messageOf(error)}</Alert>}
      {!tree && !error && <Loader size="sm" role="status" aria-label="Loading templates" />}
      {tree && tree.length === 0 && <Text>No templates yet.</Text>}
      {tree && tree.length > 0 && (
        <div onKeyDown={keys.onKeyDown}>
          <Tree<TreeNode>
            ref={keys.treeRef}
            data={tree}
            aria-label="Document templates"
            openByDefault
            disableDrag
            disableDrop
            disableEdit
            width="100%"
            height={Math.max(ROW_HEIGHT, countRows(tree) * ROW_HEIGHT)}
            rowHeight={ROW_HEIGHT}
            indent={18}
          >
            {Row}
          </Tree>
        </div>
      )}
    </Stack>
  );
}
