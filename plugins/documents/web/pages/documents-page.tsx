import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useApiClient, useCan, useHostServices, useTreeKeyboard } from '@atrium/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Tree, type NodeRendererProps } from 'react-arborist';
import { folderShape, templateShape } from '../../shared/shapes.js';
import type { ImportedDocument } from '../../shared/forms.js';
import {
  foldersClient,
  formKeys,
  listForms,
  messageOf,
  templatesClient,
  type FolderItem,
  type TemplateItem,
} from '../api.js';
import {
  documentsFormRoute,
  documentsLibraryRoute,
  documentsProductionRoute,
  documentsSettingsRoute,
  documentsTemplateRoute,
} from '../routes.js';
import { ImportFormModal } from './import-form-modal.js';
import { OpenTemplateTabs } from '../tabs/open-template-tabs.js';

interface TreeNode {
  id: string;
  name: string;
  kind: 'folder' | 'template' | 'form';
  subject?: string;
  templateId?: string;
  formId?: string;
  status?: 'draft' | 'published';
  disabled?: boolean;
  children?: TreeNode[];
}

const ROW_HEIGHT = 30;
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** Folders, templates and imported forms as a tree: items sorted by name, a folder with nothing inside disabled. */
export function buildTree(
  folders: FolderItem[],
  templates: TemplateItem[],
  forms: Pick<ImportedDocument, 'id' | 'name' | 'folder_id' | 'status'>[] = [],
): TreeNode[] {
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
          ...forms
            .filter((d) => String(d.folder_id) === f.id)
            .map((d): TreeNode => ({
              id: `d${d.id}`,
              name: d.name,
              kind: 'form',
              formId: String(d.id),
              status: d.status,
            })),
        ].sort(byName);
        return { id: `f${f.id}`, name: f.name, kind: 'folder', children, disabled: children.length === 0 };
      });
    return subFolders.sort(byName);
  };
  return build(null);
}

const countRows = (nodes: TreeNode[]): number => nodes.reduce((n, node) => n + 1 + countRows(node.children ?? []), 0);

/** Every folder with its path (`Policies › Homeowners`), sorted by path: the folder pickers' options. */
export function folderOptions(folders: FolderItem[]): { value: string; label: string }[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const pathOf = (f: FolderItem, seen = new Set<string>()): string => {
    const parent = f.parent_id ? byId.get(f.parent_id) : undefined;
    if (!parent || seen.has(f.id)) return f.name;
    seen.add(f.id);
    return `${pathOf(parent, seen)} › ${f.name}`;
  };
  return folders.map((f) => ({ value: f.id, label: pathOf(f) })).sort((a, b) => a.label.localeCompare(b.label));
}

/** What a row may offer: the tree's rows are rendered by react-arborist, so they read it from context. */
interface RowActions {
  canAuthor: boolean;
  selectedFolderId: string | null;
  selectFolder: (id: string) => void;
  edit: (target: EditTarget) => void;
}
const RowActionsContext = createContext<RowActions>({
  canAuthor: false,
  selectedFolderId: null,
  selectFolder: () => {},
  edit: () => {},
});

type EditTarget =
  | { mode: 'new-folder'; parentId: string | null }
  | { mode: 'new-template'; folderId: string | null }
  | { mode: 'rename'; kind: 'folder' | 'template'; id: string; name: string }
  | { mode: 'delete'; kind: 'folder' | 'template'; id: string; name: string };

function ItemActions({ kind, id, name }: { kind: 'folder' | 'template'; id: string; name: string }) {
  const { canAuthor, edit } = useContext(RowActionsContext);
  if (!canAuthor) return null;
  return (
    <Group gap={2} wrap="nowrap" ml="xs">
      <ActionIcon
        size="sm"
        variant="subtle"
        aria-label={`Rename ${name}`}
        onClick={() => edit({ mode: 'rename', kind, id, name })}
      >
        <Text size="xs">✎</Text>
      </ActionIcon>
      <ActionIcon
        size="sm"
        variant="subtle"
        color="red"
        aria-label={`Delete ${name}`}
        onClick={() => edit({ mode: 'delete', kind, id, name })}
      >
        <Text size="xs">✕</Text>
      </ActionIcon>
    </Group>
  );
}

function Row({ node, style }: NodeRendererProps<TreeNode>) {
  const data = node.data;
  const { selectedFolderId, selectFolder } = useContext(RowActionsContext);
  if (data.kind === 'form') {
    return (
      <div style={style}>
        <Group gap={6} wrap="nowrap" h={ROW_HEIGHT} pl={20}>
          <Text size="sm" component={Link} to={documentsFormRoute.link({ formId: data.formId! })} c="blue">
            {data.name}
          </Text>
          <Badge size="xs" variant="light" color="grape">
            PDF form
          </Badge>
          {data.status === 'draft' && (
            <Badge size="xs" variant="light" color="yellow">
              Draft
            </Badge>
          )}
        </Group>
      </div>
    );
  }
  if (data.kind === 'template') {
    return (
      <div style={style}>
        <Group gap={6} wrap="nowrap" h={ROW_HEIGHT} pl={20}>
          <Text size="sm" component={Link} to={documentsTemplateRoute.link({ templateId: data.templateId! })} c="blue">
            {data.name}
          </Text>
          <Badge size="xs" variant="light" color="gray">
            {data.subject === 'claim' ? 'Claim' : data.subject === 'quote' ? 'Quote' : 'Policy'}
          </Badge>
          <ItemActions kind="template" id={data.templateId!} name={data.name} />
        </Group>
      </div>
    );
  }
  const folderId = data.id.slice(1);
  const selected = selectedFolderId === folderId;
  return (
    <div style={style}>
      <Group
        gap={4}
        wrap="nowrap"
        h={ROW_HEIGHT}
        onClickCapture={() => selectFolder(folderId)}
        style={{ background: selected ? 'var(--mantine-color-blue-light)' : undefined, borderRadius: 4 }}
        data-selected={selected ? 'true' : undefined}
      >
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
        <ItemActions kind="folder" id={folderId} name={data.name} />
      </Group>
    </div>
  );
}

/** Creating, renaming and deleting folders and templates; the server's message shows under the field. */
function EditModal({
  target,
  folders,
  onClose,
  onDone,
}: {
  target: EditTarget;
  folders: FolderItem[];
  onClose: () => void;
  onDone: (created?: { kind: 'folder' | 'template'; id: string }) => void;
}) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const options = folderOptions(folders);
  const [name, setName] = useState(target.mode === 'rename' ? target.name : '');
  const [folderId, setFolderId] = useState<string | null>(
    target.mode === 'new-folder' ? target.parentId : target.mode === 'new-template' ? target.folderId : null,
  );
  const [subject, setSubject] = useState<string | null>('policy');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [folderError, setFolderError] = useState<string | null>(null);

  const run = useMutation({
    mutationFn: async (): Promise<{ kind: 'folder' | 'template'; id: string } | undefined> => {
      switch (target.mode) {
        case 'new-folder': {
          const { item } = await foldersClient.create(api, {
            attributes: { name: name.trim() },
            ...(folderId ? { relationships: { parent: folderId } } : {}),
          });
          return { kind: 'folder', id: item.id };
        }
        case 'new-template': {
          const { item } = await templatesClient.create(api, {
            attributes: { name: name.trim(), description, subject: subject ?? 'policy' },
            relationships: { folder: folderId! },
          });
          return { kind: 'template', id: item.id };
        }
        case 'rename': {
          const client = target.kind === 'folder' ? foldersClient : templatesClient;
          await client.update(api, target.id, { attributes: { name: name.trim() } });
          return undefined;
        }
        case 'delete': {
          const client = target.kind === 'folder' ? foldersClient : templatesClient;
          await client.remove(api, target.id);
          return undefined;
        }
      }
    },
    onSuccess: (created) => {
      const word = target.mode === 'delete' || target.mode === 'rename' ? target.kind : null;
      const message =
        target.mode === 'new-folder'
          ? `Folder "${name.trim()}" created.`
          : target.mode === 'new-template'
            ? `Template "${name.trim()}" created.`
            : target.mode === 'rename'
              ? `${word === 'folder' ? 'Folder' : 'Template'} renamed to "${name.trim()}".`
              : `${word === 'folder' ? 'Folder' : 'Template'} "${target.name}" deleted.`;
      showToast({ message, kind: 'success' });
      onDone(created);
    },
    onError: (error) => {
      if (target.mode !== 'delete') setNameError(messageOf(error));
    },
  });

  const submit = () => {
    if (target.mode === 'delete') return run.mutate();
    const shape = target.mode === 'new-template' || (target.mode === 'rename' && target.kind === 'template');
    const check = (shape ? templateShape : folderShape).attributes.name.safeParse(name);
    const nameProblem = check.success ? null : (check.error.issues[0]?.message ?? 'A name is required.');
    const folderProblem = target.mode === 'new-template' && !folderId ? 'Choose the folder for the template.' : null;
    setNameError(nameProblem);
    setFolderError(folderProblem);
    if (!nameProblem && !folderProblem) run.mutate();
  };

  const title =
    target.mode === 'new-folder'
      ? 'New folder'
      : target.mode === 'new-template'
        ? 'New template'
        : target.mode === 'rename'
          ? `Rename ${target.name}`
          : `Delete ${target.name}`;
  return (
    <Modal opened onClose={onClose} title={title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          {target.mode === 'delete' ? (
            <>
              <Text>
                {target.kind === 'folder'
                  ? `Delete the folder "${target.name}"? Only an empty folder can be deleted.`
                  : `Delete the template "${target.name}" and its versions? A template that production documents were rendered from cannot be deleted.`}
              </Text>
              {run.error && <Alert color="red">{messageOf(run.error)}</Alert>}
            </>
          ) : (
            <>
              <TextInput
                label="Name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={nameError}
                data-autofocus
              />
              {(target.mode === 'new-folder' || target.mode === 'new-template') && (
                <Select
                  label={target.mode === 'new-folder' ? 'Inside folder' : 'Folder'}
                  placeholder={target.mode === 'new-folder' ? 'Top level' : 'Choose a folder'}
                  data={options}
                  value={folderId}
                  onChange={setFolderId}
                  clearable={target.mode === 'new-folder'}
                  error={folderError}
                  allowDeselect={false}
                />
              )}
              {target.mode === 'new-template' && (
                <>
                  <Select
                    label="Written for"
                    description="Which sample data previews render with."
                    data={[
                      { value: 'policy', label: 'A policy' },
                      { value: 'claim', label: 'A claim' },
                      { value: 'quote', label: 'A quote' },
                    ]}
                    value={subject}
                    onChange={setSubject}
                    allowDeselect={false}
                  />
                  <Textarea
                    label="Description"
                    value={description}
                    onChange={(e) => setDescription(e.currentTarget.value)}
                  />
                </>
              )}
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={target.mode === 'delete' ? 'red' : undefined} loading={run.isPending}>
              {target.mode === 'delete' ? 'Delete' : target.mode === 'rename' ? 'Rename' : 'Create'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export default function DocumentsPage() {
  const api = useApiClient();
  const folders = useQuery(foldersClient.allQuery(api));
  const templates = useQuery(templatesClient.allQuery(api));
  const forms = useQuery({ queryKey: formKeys.all, queryFn: () => listForms(api) });
  const error = folders.error ?? templates.error ?? forms.error;
  const [importing, setImporting] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The same evaluation the server makes for folder and template writes (resources.ts: `author`).
  const canAuthor = useCan('documents:template', 'author').allowed;
  const [selectedFolderId, setSelectedFolderId] = useState<string | null>(null);
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const folderList = (folders.data ?? []) as unknown as FolderItem[];
  const selectedFolder = folderList.find((f) => f.id === selectedFolderId) ?? null;
  const done = async (created?: { kind: 'folder' | 'template'; id: string }) => {
    setEditing(null);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: foldersClient.keys.all }),
      queryClient.invalidateQueries({ queryKey: templatesClient.keys.all }),
    ]);
    if (created?.kind === 'folder') setSelectedFolderId(created.id);
    if (created?.kind === 'template') navigate(documentsTemplateRoute.link({ templateId: created.id }));
  };
  // Enter on a focused row: a template opens, a folder opens or closes (as a click does).
  const keys = useTreeKeyboard<TreeNode>((node) => {
    if (node.data.kind === 'template') navigate(documentsTemplateRoute.link({ templateId: node.data.templateId! }));
    else if (node.data.kind === 'form') navigate(documentsFormRoute.link({ formId: node.data.formId! }));
    else if (!node.data.disabled) node.toggle();
  });
  const tree =
    folders.data && templates.data && forms.data
      ? buildTree(folders.data as unknown as FolderItem[], templates.data as unknown as TemplateItem[], forms.data)
      : null;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Documents</Title>
        <Group gap="md">
          <Anchor component={Link} to={documentsProductionRoute.link({})} size="sm">
            Production documents
          </Anchor>
          <Anchor component={Link} to={documentsLibraryRoute.link({})} size="sm">
            Components and assets
          </Anchor>
          <Anchor component={Link} to={documentsSettingsRoute.link({})} size="sm">
            Declarations settings
          </Anchor>
        </Group>
      </Group>
      <OpenTemplateTabs />
      <Text c="dimmed" size="sm">
        Document templates and imported PDF forms by folder. Open a template to see its source, a live preview and its
        versions; open a form to map its fields.
      </Text>
      {canAuthor && tree && (
        <Group>
          <Button size="xs" onClick={() => setEditing({ mode: 'new-folder', parentId: selectedFolderId })}>
            New folder
          </Button>
          <Button
            size="xs"
            variant="light"
            onClick={() => setEditing({ mode: 'new-template', folderId: selectedFolderId })}
          >
            New template
          </Button>
          <Button size="xs" variant="light" onClick={() => setImporting(true)}>
            Import PDF form
          </Button>
          <Text size="xs" c="dimmed">
            {selectedFolder
              ? `Selected folder: ${folderOptions(folderList).find((o) => o.value === selectedFolder.id)?.label}`
              : 'Select a folder to create inside it.'}
          </Text>
        </Group>
      )}
      {importing && (
        <ImportFormModal
          folderId={selectedFolderId}
          folders={folderList}
          onClose={() => setImporting(false)}
          onDone={async (created) => {
            setImporting(false);
            await queryClient.invalidateQueries({ queryKey: formKeys.all });
            navigate(documentsFormRoute.link({ formId: String(created.id) }));
          }}
        />
      )}
      {editing && <EditModal target={editing} folders={folderList} onClose={() => setEditing(null)} onDone={done} />}
      {error && <Alert color="red">{messageOf(error)}</Alert>}
      {!tree && !error && <Loader size="sm" role="status" aria-label="Loading templates" />}
      {tree && tree.length === 0 && <Text>No templates yet.</Text>}
      {tree && tree.length > 0 && (
        <RowActionsContext.Provider
          value={{ canAuthor, selectedFolderId, selectFolder: setSelectedFolderId, edit: setEditing }}
        >
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
        </RowActionsContext.Provider>
      )}
    </Stack>
  );
}
